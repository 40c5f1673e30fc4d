//! Reading traces, with an error naming the line for every malformed input.

use crate::{NotPresent, Record};
use collide::{Aabb, AabbError, Vector};
use glam::{Vec2, Vec3};
use std::collections::HashSet;
use std::fmt;
use std::io::BufRead;

/// A parsed trace: its frames of records.
///
/// ```
/// use collide_scenes::trace::{parse_str, AnyTrace};
/// use collide_scenes::Record;
/// let AnyTrace::D2(trace) = parse_str("dim 2\nframe\nu 1 0 0 2 2\nframe\nframe\nr 1\n")? else {
///     unreachable!()
/// };
/// assert_eq!(trace.frames.len(), 3);
/// assert!(trace.frames[1].is_empty()); // a frame with no change
/// assert_eq!(trace.frames[2], vec![Record::Remove { id: 1 }]);
/// # Ok::<(), collide_scenes::trace::TraceError>(())
/// ```
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Trace<V: Vector> {
    /// Frame `i` holds the records between the `i`-th `frame` line and the
    /// next.
    pub frames: Vec<Vec<Record<V>>>,
}

/// A trace of either dimension, as the `dim` record says.
///
/// ```
/// use collide_scenes::trace::{parse_str, AnyTrace};
/// let frames = match parse_str("dim 3\nframe\nu 5 0 0 0 1 1 1\n")? {
///     AnyTrace::D2(_) => unreachable!("the header says dim 3"),
///     AnyTrace::D3(trace) => trace.frames,
/// };
/// assert_eq!(frames[0][0].id(), 5);
/// # Ok::<(), collide_scenes::trace::TraceError>(())
/// ```
#[derive(Clone, Debug, PartialEq)]
pub enum AnyTrace {
    /// `dim 2`.
    D2(Trace<Vec2>),
    /// `dim 3`.
    D3(Trace<Vec3>),
}

/// What is wrong with a trace.
///
/// ```
/// use collide_scenes::trace::{parse_str, TraceErrorKind};
/// let err = parse_str("dim 2\nframe\nu 1 0 0 1 1\nu 1 2 2 3 3\n").unwrap_err();
/// assert_eq!(err.kind, TraceErrorKind::IdTwice { id: 1, frame: 0 });
/// let err = parse_str("dim 4\n").unwrap_err();
/// assert_eq!(err.kind, TraceErrorKind::BadDim("4".into()));
/// ```
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum TraceErrorKind {
    /// The input could not be read.
    #[error("cannot read the trace: {0}")]
    Io(String),
    /// The input ended before any record (empty, or only comments and
    /// blank lines).
    #[error("the trace ends before its first record, which must be `dim 2` or `dim 3`")]
    Empty,
    /// A record came before `dim`.
    #[error("`{0}` comes before `dim`: the first record must be `dim 2` or `dim 3`")]
    BeforeDim(String),
    /// `dim` given with a value other than 2 or 3.
    #[error("`dim {0}` is not supported: use `dim 2` or `dim 3`")]
    BadDim(String),
    /// A second `dim` record.
    #[error("`dim` is given twice: a trace has one dimension, set by its first record")]
    DimTwice,
    /// An object record came before the first `frame`.
    #[error("`{0}` comes before the first `frame` record: start a frame with a line `frame`")]
    BeforeFrame(String),
    /// An unknown record type.
    #[error("unknown record `{0}`: expected `dim`, `frame`, `u` or `r`")]
    UnknownRecord(String),
    /// A record with the wrong number of fields.
    #[error("`{record}` takes {expected} fields after the record name, found {found}")]
    FieldCount {
        /// The record name.
        record: String,
        /// Fields it takes.
        expected: usize,
        /// Fields given.
        found: usize,
    },
    /// A field that should be an id.
    #[error("field {field} `{text}` is not an object id (an unsigned 64-bit integer)")]
    BadId {
        /// 1-based field number after the record name.
        field: usize,
        /// The text given.
        text: String,
    },
    /// A field that should be a coordinate.
    #[error("field {field} `{text}` is not a number")]
    BadNumber {
        /// 1-based field number after the record name.
        field: usize,
        /// The text given.
        text: String,
    },
    /// A non-finite coordinate or min > max.
    #[error("invalid box for object {id}: {source}")]
    BadBox {
        /// The object id.
        id: u64,
        /// What is wrong with the box.
        source: AabbError,
    },
    /// `r` named an object that is not present.
    #[error(transparent)]
    UnknownId(#[from] NotPresent),
    /// An id named by two records of one frame.
    #[error(
        "object {id} is named twice in frame {frame}: give each object at most one record per frame"
    )]
    IdTwice {
        /// The object id.
        id: u64,
        /// The frame, from 0.
        frame: usize,
    },
}

/// A trace error with the 1-based line it was found on. An input that ends
/// too early names the line just past its end; `None` is for errors not tied
/// to a line.
///
/// ```
/// use collide_scenes::trace::{parse_str, TraceErrorKind};
/// let err = parse_str("# header comment\ndim 2\nframe\nr 9\n").unwrap_err();
/// assert_eq!(err.line, Some(4));
/// assert_eq!(err.kind, TraceErrorKind::UnknownId(collide_scenes::NotPresent(9)));
/// assert_eq!(err.to_string(), "line 4: object 9 is not present, so it cannot be removed");
/// assert_eq!(parse_str("").unwrap_err().line, Some(1)); // just past the end
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct TraceError {
    /// The 1-based line number.
    pub line: Option<usize>,
    /// What is wrong.
    pub kind: TraceErrorKind,
}

impl fmt::Display for TraceError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.line {
            Some(line) => write!(f, "line {line}: {}", self.kind),
            None => write!(f, "{}", self.kind),
        }
    }
}

impl std::error::Error for TraceError {}

/// Parses a trace from a string. See the [module docs](super).
///
/// ```
/// use collide_scenes::trace::{parse_str, AnyTrace};
/// let trace = parse_str("dim 2\nframe\nu 7 0 0 1 1\nframe\nr 7\n")?;
/// let AnyTrace::D2(trace) = trace else { unreachable!() };
/// assert_eq!(trace.frames.len(), 2);
///
/// let err = parse_str("dim 2\nframe\nu 7 0 0 1\n").unwrap_err();
/// assert_eq!(err.to_string(), "line 3: `u` takes 5 fields after the record name, found 4");
/// # Ok::<(), collide_scenes::trace::TraceError>(())
/// ```
pub fn parse_str(text: &str) -> Result<AnyTrace, TraceError> {
    parse(text.as_bytes())
}

/// Parses a trace from any buffered reader. See the [module docs](super).
///
/// ```
/// use collide_scenes::trace::{parse, AnyTrace};
/// use std::io::BufReader;
/// let file = BufReader::new("dim 2\nframe\nu 1 0 0 1 1\nu 2 0.5 0.5 3 3\n".as_bytes());
/// let AnyTrace::D2(trace) = parse(file)? else { unreachable!() };
/// assert_eq!(trace.frames[0].len(), 2);
/// # Ok::<(), collide_scenes::trace::TraceError>(())
/// ```
pub fn parse(input: impl BufRead) -> Result<AnyTrace, TraceError> {
    let mut lines = Lines {
        inner: input.lines(),
        number: 0,
    };
    let Some((line, text)) = lines.next_record()? else {
        // The line where `dim` was expected: just past the end.
        return Err(TraceError {
            line: Some(lines.number + 1),
            kind: TraceErrorKind::Empty,
        });
    };
    let fields: Vec<&str> = text.split_ascii_whitespace().collect();
    let at = |kind| TraceError {
        line: Some(line),
        kind,
    };
    if fields[0] != "dim" {
        return Err(at(TraceErrorKind::BeforeDim(fields[0].to_string())));
    }
    if fields.len() != 2 {
        return Err(at(TraceErrorKind::FieldCount {
            record: "dim".into(),
            expected: 1,
            found: fields.len() - 1,
        }));
    }
    match fields[1] {
        "2" => Ok(AnyTrace::D2(parse_body(&mut lines)?)),
        "3" => Ok(AnyTrace::D3(parse_body(&mut lines)?)),
        other => Err(at(TraceErrorKind::BadDim(other.to_string()))),
    }
}

struct Lines<B> {
    inner: std::io::Lines<B>,
    number: usize,
}

impl<B: BufRead> Lines<B> {
    /// The next line that is neither blank nor a comment, with its number.
    fn next_record(&mut self) -> Result<Option<(usize, String)>, TraceError> {
        for line in self.inner.by_ref() {
            self.number += 1;
            let line = line.map_err(|e| TraceError {
                line: Some(self.number),
                kind: TraceErrorKind::Io(e.to_string()),
            })?;
            let trimmed = line.trim();
            if !trimmed.is_empty() && !trimmed.starts_with('#') {
                return Ok(Some((self.number, trimmed.to_string())));
            }
        }
        Ok(None)
    }
}

fn parse_body<V: Vector, B: BufRead>(lines: &mut Lines<B>) -> Result<Trace<V>, TraceError> {
    let mut trace = Trace { frames: Vec::new() };
    let mut present: HashSet<u64> = HashSet::new();
    let mut named_this_frame: HashSet<u64> = HashSet::new();
    let mut coords = vec![0.0f32; 2 * V::DIM];
    while let Some((line, text)) = lines.next_record()? {
        let at = |kind| TraceError {
            line: Some(line),
            kind,
        };
        let fields: Vec<&str> = text.split_ascii_whitespace().collect();
        let (record, args) = (fields[0], &fields[1..]);
        let expect_fields = |expected: usize| {
            if args.len() == expected {
                Ok(())
            } else {
                Err(at(TraceErrorKind::FieldCount {
                    record: record.to_string(),
                    expected,
                    found: args.len(),
                }))
            }
        };
        match record {
            "dim" => return Err(at(TraceErrorKind::DimTwice)),
            "frame" => {
                expect_fields(0)?;
                trace.frames.push(Vec::new());
                named_this_frame.clear();
                continue;
            }
            "u" | "r" => {}
            other => return Err(at(TraceErrorKind::UnknownRecord(other.to_string()))),
        }
        let Some(frame_index) = trace.frames.len().checked_sub(1) else {
            return Err(at(TraceErrorKind::BeforeFrame(record.to_string())));
        };
        expect_fields(if record == "u" { 1 + 2 * V::DIM } else { 1 })?;
        let id: u64 = args[0].parse().map_err(|_| {
            at(TraceErrorKind::BadId {
                field: 1,
                text: args[0].to_string(),
            })
        })?;
        if !named_this_frame.insert(id) {
            return Err(at(TraceErrorKind::IdTwice {
                id,
                frame: frame_index,
            }));
        }
        let frame = &mut trace.frames[frame_index];
        if record == "u" {
            for (k, (text, slot)) in args[1..].iter().zip(coords.iter_mut()).enumerate() {
                *slot = text.parse().map_err(|_| {
                    at(TraceErrorKind::BadNumber {
                        field: k + 2,
                        text: text.to_string(),
                    })
                })?;
            }
            let min = V::from_axes(|i| coords[i]);
            let max = V::from_axes(|i| coords[V::DIM + i]);
            let aabb =
                Aabb::new(min, max).map_err(|source| at(TraceErrorKind::BadBox { id, source }))?;
            present.insert(id);
            frame.push(Record::Upsert { id, aabb });
        } else {
            if !present.remove(&id) {
                return Err(at(TraceErrorKind::UnknownId(NotPresent(id))));
            }
            frame.push(Record::Remove { id });
        }
    }
    Ok(trace)
}
