"""CP-SAT row machinery: the lattice, end-pose options, sound rows, separating axes."""
