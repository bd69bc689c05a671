pragma circom 2.0.0;

include "circomlib/circuits/poseidon.circom";

// A short chain of circomlib Poseidon hashes: h_{i+1} = Poseidon(h_i, y).
template PoseidonChain(n) {
    signal input x;
    signal input y;
    signal output out;
    component h[n];
    signal acc[n + 1];
    acc[0] <== x;
    for (var i = 0; i < n; i++) {
        h[i] = Poseidon(2);
        h[i].inputs[0] <== acc[i];
        h[i].inputs[1] <== y;
        acc[i + 1] <== h[i].out;
    }
    out <== acc[n];
}

component main {public [y]} = PoseidonChain(4);
