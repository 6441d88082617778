"""Standing instructions: resolution of the chain, the provider-visible prefix, rules added by
a person, and compare-and-set editing of one instruction file."""
