//! Writing traces.

use crate::Record;
use collide::Vector;
use std::io::{self, Write};

/// Writes a trace, frame by frame, in the format of the [module](super).
/// Coordinates are written in Rust's shortest round-trip form, so a parsed
/// trace holds exactly the boxes written.
///
/// ```
/// use collide_scenes::trace::{parse_str, AnyTrace, TraceWriter};
/// use collide::Aabb2;
/// use collide_scenes::Record;
/// use glam::Vec2;
///
/// let mut out = Vec::new();
/// let mut writer = TraceWriter::new(&mut out, 2)?;
/// let aabb = Aabb2::new(Vec2::new(0.1, -2.0), Vec2::new(3.5, 4.0))?;
/// writer.frame(&[Record::Upsert { id: 9, aabb }])?;
/// let text = String::from_utf8(out)?;
/// assert_eq!(text, "dim 2\nframe\nu 9 0.1 -2 3.5 4\n");
/// let AnyTrace::D2(trace) = parse_str(&text)? else { unreachable!() };
/// assert_eq!(trace.frames[0], vec![Record::Upsert { id: 9, aabb }]);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub struct TraceWriter<W: Write> {
    out: W,
    dim: usize,
}

impl<W: Write> TraceWriter<W> {
    /// Starts a trace of dimension `dim` (2 or 3) by writing its header.
    ///
    /// ```
    /// use collide_scenes::trace::TraceWriter;
    /// let out = TraceWriter::new(Vec::new(), 3)?.finish()?;
    /// assert_eq!(out, b"dim 3\n");
    /// # Ok::<(), std::io::Error>(())
    /// ```
    pub fn new(mut out: W, dim: usize) -> io::Result<Self> {
        if !(2..=3).contains(&dim) {
            return Err(io::Error::new(
                io::ErrorKind::InvalidInput,
                format!("a trace has dim 2 or dim 3, not {dim}"),
            ));
        }
        writeln!(out, "dim {dim}")?;
        Ok(Self { out, dim })
    }

    /// Writes a comment line (`# text`); each line of a multi-line `text`
    /// becomes its own comment line.
    ///
    /// ```
    /// use collide_scenes::trace::{parse_str, TraceWriter};
    /// let mut writer = TraceWriter::new(Vec::new(), 2)?;
    /// writer.comment("recorded by level 3\nseed 42")?;
    /// let text = String::from_utf8(writer.finish()?)?;
    /// assert_eq!(text, "dim 2\n# recorded by level 3\n# seed 42\n");
    /// assert!(parse_str(&text).is_ok()); // comments are ignored
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn comment(&mut self, text: &str) -> io::Result<()> {
        for line in text.lines() {
            writeln!(self.out, "# {line}")?;
        }
        Ok(())
    }

    /// Writes one frame.
    ///
    /// ```
    /// use collide_scenes::trace::TraceWriter;
    /// use collide_scenes::Record;
    /// use glam::Vec2;
    /// let mut writer = TraceWriter::new(Vec::new(), 2)?;
    /// writer.frame::<Vec2>(&[])?; // an empty frame is still a frame
    /// writer.frame::<Vec2>(&[Record::Remove { id: 4 }])?;
    /// let text = String::from_utf8(writer.finish()?)?;
    /// assert_eq!(text, "dim 2\nframe\nframe\nr 4\n");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn frame<V: Vector>(&mut self, records: &[Record<V>]) -> io::Result<()> {
        if V::DIM != self.dim {
            return Err(io::Error::new(
                io::ErrorKind::InvalidInput,
                format!(
                    "{}D records cannot go into a dim {} trace",
                    V::DIM,
                    self.dim
                ),
            ));
        }
        writeln!(self.out, "frame")?;
        for record in records {
            match record {
                Record::Upsert { id, aabb } => {
                    write!(self.out, "u {id}")?;
                    for corner in [aabb.min(), aabb.max()] {
                        for axis in 0..V::DIM {
                            write!(self.out, " {}", corner.axis(axis))?;
                        }
                    }
                    writeln!(self.out)?;
                }
                Record::Remove { id } => writeln!(self.out, "r {id}")?,
            }
        }
        Ok(())
    }

    /// Flushes and returns the writer.
    ///
    /// ```
    /// use collide_scenes::trace::TraceWriter;
    /// use std::io::BufWriter;
    /// let writer = TraceWriter::new(BufWriter::new(Vec::new()), 2)?;
    /// let buffered: BufWriter<Vec<u8>> = writer.finish()?;
    /// assert_eq!(buffered.get_ref(), b"dim 2\n"); // flushed through
    /// # Ok::<(), std::io::Error>(())
    /// ```
    pub fn finish(mut self) -> io::Result<W> {
        self.out.flush()?;
        Ok(self.out)
    }
}
