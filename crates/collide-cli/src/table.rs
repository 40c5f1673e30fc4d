//! Plain-text tables with aligned columns, for the terminal.

/// A table: a header row and data rows, printed with right-aligned columns
/// (the first column left-aligned).
#[derive(Clone, Debug, Default)]
pub struct Table {
    rows: Vec<Vec<String>>,
}

impl Table {
    pub fn new(header: &[&str]) -> Self {
        Self {
            rows: vec![header.iter().map(|s| s.to_string()).collect()],
        }
    }

    pub fn row(&mut self, cells: Vec<String>) {
        self.rows.push(cells);
    }

    pub fn render(&self) -> String {
        let columns = self.rows.iter().map(Vec::len).max().unwrap_or(0);
        let widths: Vec<usize> = (0..columns)
            .map(|c| {
                self.rows
                    .iter()
                    .filter_map(|r| r.get(c))
                    .map(|s| s.chars().count())
                    .max()
                    .unwrap_or(0)
            })
            .collect();
        let mut out = String::new();
        for (r, row) in self.rows.iter().enumerate() {
            let line: Vec<String> = row
                .iter()
                .enumerate()
                .map(|(c, cell)| {
                    if c == 0 {
                        format!("{cell:<w$}", w = widths[c])
                    } else {
                        format!("{cell:>w$}", w = widths[c])
                    }
                })
                .collect();
            out.push_str(line.join("  ").trim_end());
            out.push('\n');
            if r == 0 {
                let rule: usize = widths.iter().sum::<usize>() + 2 * columns.saturating_sub(1);
                out.push_str(&"-".repeat(rule));
                out.push('\n');
            }
        }
        out
    }
}

/// `12345.6` as `12,346`: thousands separated, rounded to an integer.
pub fn thousands(value: f64) -> String {
    let rounded = value.round() as i128;
    let digits = rounded.unsigned_abs().to_string();
    let mut out = String::new();
    for (i, ch) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(ch);
    }
    if rounded < 0 {
        out.insert(0, '-');
    }
    out
}

/// A time in microseconds with sensible precision.
pub fn micros(value: f64) -> String {
    if value >= 100.0 {
        thousands(value)
    } else {
        format!("{value:.1}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn thousands_groups_digits() {
        assert_eq!(thousands(0.0), "0");
        assert_eq!(thousands(999.4), "999");
        assert_eq!(thousands(12800.0), "12,800");
        assert_eq!(thousands(-1234567.0), "-1,234,567");
    }

    #[test]
    fn columns_align() {
        let mut t = Table::new(&["name", "n"]);
        t.row(vec!["brute".into(), "12".into()]);
        assert_eq!(t.render(), "name    n\n---------\nbrute  12\n");
    }
}
