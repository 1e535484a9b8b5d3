//! Output written line by line, each line wrapped at word boundaries to the terminal's
//! width: what quizz prints after leaving the full-screen UI (where a posting or outbox
//! message runs past 80 columns) never breaks inside a word.

use std::io::Write;

pub struct Wrapped<W: Write> {
    inner: W,
    width: usize,
    line: Vec<u8>,
}

impl<W: Write> Wrapped<W> {
    pub fn new(inner: W, width: usize) -> Self {
        Self {
            inner,
            width,
            line: Vec::new(),
        }
    }

    fn write_line(&mut self) -> std::io::Result<()> {
        let text = String::from_utf8_lossy(&self.line).into_owned();
        self.line.clear();
        if crate::text::display_width(&text) <= self.width {
            return self.inner.write_all(text.as_bytes());
        }
        self.inner
            .write_all(crate::text::wrap(&text, self.width).join("\n").as_bytes())
    }
}

impl<W: Write> Write for Wrapped<W> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        for &b in buf {
            if b == b'\n' {
                self.write_line()?;
                self.inner.write_all(b"\n")?;
            } else {
                self.line.push(b);
            }
        }
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        if !self.line.is_empty() {
            self.write_line()?;
        }
        self.inner.flush()
    }
}

impl<W: Write> Drop for Wrapped<W> {
    fn drop(&mut self) {
        let _ = self.flush();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_long_line_breaks_between_words_and_short_ones_stay() {
        let mut out = Vec::new();
        {
            let mut w = Wrapped::new(&mut out, 40);
            writeln!(w, "short").unwrap();
            writeln!(
                w,
                "Offline: the results wait in the outbox; run `quizz post` when GitHub can be reached."
            )
            .unwrap();
        }
        let text = String::from_utf8(out).unwrap();
        assert_eq!(
            text,
            "short\nOffline: the results wait in the outbox;\nrun `quizz post` when GitHub can be\nreached.\n"
        );
    }
}
