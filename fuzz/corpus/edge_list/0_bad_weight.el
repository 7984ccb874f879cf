00 1 inf
