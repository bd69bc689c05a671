// GPU MSM on G2 (F = Fp2): the one instantiation of the engine's G2 kernels.
#include "cuda/msm_impl.cuh"

namespace cuzk::cuda {

template class Msm<Fp2>;

}  // namespace cuzk::cuda
