//! Tests of the internals that the integration tests (`tests/it/`) cannot reach: the
//! split search against the plain search, the baked tables against the run-time ones
//! and an independent enumeration, the pruning and the half-turn restriction against
//! the unpruned tables.

mod meet;
