#include "groth16/backend.hpp"

namespace cuzk {

KeyVectorSet ProverBackend::device_resident(const ProvingKey&, const CompactCs*) const { return {}; }

std::unique_ptr<BackendPending> ProverBackend::start_releasing(std::shared_ptr<const ProvingKey> key,
                                                               std::shared_ptr<const Assignment> asg,
                                                               const std::function<void()>&) {
  return start(std::move(key), std::move(asg));
}

uint64_t ProverBackend::partition_host_bytes(const ProvingKey& key, const CompactCs* rows) const {
  if (!rows) return 0;
  return 32 * (7 * (uint64_t)key.domain_size() + 2 * ((uint64_t)key.n_inputs + key.n_aux));
}

BigVector<Fr> a_scalars(const Assignment& asg) {
  BigVector<Fr> out;
  out.reserve(asg.inputs.size() + asg.a_aux.popcount());
  out.insert(out.end(), asg.inputs.begin(), asg.inputs.end());
  for (size_t i = 0; i < asg.aux.size(); i++)
    if (asg.a_aux.test(i)) out.push_back(asg.aux[i]);
  return out;
}

BigVector<Fr> b_scalars(const Assignment& asg) {
  BigVector<Fr> out;
  out.reserve(asg.b_inp.popcount() + asg.b_aux.popcount());
  for (size_t i = 0; i < asg.inputs.size(); i++)
    if (asg.b_inp.test(i)) out.push_back(asg.inputs[i]);
  for (size_t i = 0; i < asg.aux.size(); i++)
    if (asg.b_aux.test(i)) out.push_back(asg.aux[i]);
  return out;
}

}  // namespace cuzk
