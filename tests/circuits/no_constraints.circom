pragma circom 2.0.0;

// No constraints at all (nConstraints = 0). The private input x is unused: circom drops it from the
// witness but still counts it (nWires = 2, nPubIn = 1, nPrvIn = 1). The public input p is bound
// only by the verification key's IC.
template NoConstraints() {
    signal input x;
    signal input p;
}

component main {public [p]} = NoConstraints();
