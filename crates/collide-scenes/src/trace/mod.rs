//! The trace format: a documented text format for recorded box streams, so
//! a game can record what it fed the broad phase and replay it through any
//! structure (`collide replay`).
//!
//! ```text
//! # comment lines start with '#'; blank lines are ignored
//! dim 2                      first record: dim 2 or dim 3
//! frame                      starts the next frame; frames count from 0
//! u ID minx miny maxx maxy   insert object ID (unsigned 64-bit) or move it to this box
//!                            (dim 3: minx miny minz maxx maxy maxz)
//! r ID                       remove object ID
//! ```
//!
//! Objects keep their box until updated. [`parse`] refuses, with the line
//! number: a record before `dim` or before the first `frame`, an unknown
//! record, a wrong number of fields, a field that is not a number or an id,
//! a non-finite coordinate, min > max, removing an id that is not present,
//! and naming one id twice in one frame.

mod parse;
mod write;

pub use parse::{AnyTrace, Trace, TraceError, TraceErrorKind, parse, parse_str};
pub use write::TraceWriter;
