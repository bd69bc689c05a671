pragma circom 2.0.0;

// 24 public inputs and 24 public outputs: a wide IC vector.
template ManyPublic(n) {
    signal input x[n];
    signal input k;
    signal output y[n];
    for (var i = 0; i < n; i++) {
        y[i] <== x[i] * k;
    }
}

component main {public [x]} = ManyPublic(24);
