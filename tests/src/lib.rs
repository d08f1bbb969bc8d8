//! Integration tests of the generator and the generated crate live in `tests/`.
