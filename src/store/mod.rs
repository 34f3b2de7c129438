//! What is kept of each handoff, below the operations that write and read it: the records in the
//! notes ref (`records`) and each attempt's handoff found on the branch, with where its next note
//! goes (`handoff`).

pub mod handoff;
pub mod records;
