//! The trace parser on arbitrary bytes: a trace or a typed error with a
//! line number, never a panic; a trace it accepts writes and parses back
//! to itself.

use collide::Vector;
use collide_scenes::trace::{AnyTrace, Trace, TraceWriter, parse};

/// Parses `bytes`; when they are a trace, writes it and parses it again,
/// and returns what differs.
pub fn check(bytes: &[u8]) -> Result<(), String> {
    let trace = match parse(bytes) {
        Ok(trace) => trace,
        // Only a read error (not UTF-8, say) may lack a line number.
        Err(e) if e.line.is_none() && std::str::from_utf8(bytes).is_ok() => {
            return Err(format!("an error without a line number: {e}"));
        }
        Err(_) => return Ok(()),
    };
    let written = match &trace {
        AnyTrace::D2(t) => write(t, 2),
        AnyTrace::D3(t) => write(t, 3),
    }
    .map_err(|e| format!("writing a parsed trace failed: {e}"))?;
    match parse(&written[..]) {
        Ok(again) if again == trace => Ok(()),
        Ok(_) => Err("a trace changed on writing and parsing back".into()),
        Err(e) => Err(format!("a written trace does not parse: {e}")),
    }
}

fn write<V: Vector>(trace: &Trace<V>, dim: usize) -> std::io::Result<Vec<u8>> {
    let mut writer = TraceWriter::new(Vec::new(), dim)?;
    for frame in &trace.frames {
        writer.frame(frame)?;
    }
    writer.finish()
}
