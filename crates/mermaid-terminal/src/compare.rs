//! Where the options of a question differ from each other, for a "differences" highlight.
//!
//! [`differences`] takes the options as rendered (one form for all, see
//! [`render_options`](crate::render_options)) and returns, for each option, the
//! display-column ranges of each of its rows to highlight. It says where the options
//! differ, never which one is right: the marks are symmetric.
//!
//! - Compact lists and source (or options in different forms): whole rows. A row is marked
//!   when some other option has no matching row in the same order (a longest common
//!   subsequence of rows, pair by pair).
//! - Drawings: cells. Rows are aligned pair by pair (an edit-distance alignment that costs
//!   the cells that differ, so an inserted box shifts the rows below it without marking
//!   them), then aligned rows are compared cell by cell along a longest common subsequence
//!   (so a box shifted by a longer label is not marked, the label is), and every drawn cell
//!   of a row with no counterpart is marked.

use std::collections::HashSet;
use std::ops::Range;

use crate::style::Line;
use crate::text::clusters;
use crate::{DiagramKind, Form, RegionLayout, RenderOptions, Rendered, Want};

/// Per row of an option's lines: the display-column ranges that differ from the other
/// options (empty: the row reads the same in all of them). In a drawing a range may run
/// past the row's text: there another option draws something this one does not.
pub type Marks = Vec<Vec<Range<usize>>>;

/// Where the options of a question differ.
#[derive(Debug, Clone, Default)]
pub struct Differences {
    /// per option, the marks (see [`Marks`])
    pub marks: Vec<Marks>,
    /// per option: a drawing laid out so differently from every other option that cell
    /// marks would say nothing (it gets none; the list form compares it row by row)
    pub apart: Vec<bool>,
}

/// Two drawings whose marks against each other cover more than this share of either's
/// drawn cells are laid out too differently to compare cell by cell.
pub(crate) const APART: f64 = 0.3;

/// For each option, where it differs from the others (see the module documentation).
/// Options are compared in the form they were rendered in; `marks[i][row]` lines up with
/// `options[i].lines[row]`.
pub fn differences(options: &[Rendered]) -> Differences {
    let lines: Vec<&[Line]> = options.iter().map(|r| r.lines.as_slice()).collect();
    let cells = !options.is_empty() && options.iter().all(|r| r.form == Form::Drawing);
    if cells {
        cell_marks(&lines)
    } else {
        Differences {
            marks: row_marks(&lines),
            apart: vec![false; options.len()],
        }
    }
}

/// Whole-row marks for lists: rows outside a common subsequence with some other option.
pub fn row_marks(options: &[&[Line]]) -> Vec<Marks> {
    let texts: Vec<Vec<String>> = options
        .iter()
        .map(|ls| ls.iter().map(|l| l.text().trim_end().to_string()).collect())
        .collect();
    let mut differ: Vec<Vec<bool>> = texts.iter().map(|t| vec![false; t.len()]).collect();
    for i in 0..texts.len() {
        for j in i + 1..texts.len() {
            let (in_a, in_b) = common_rows(&texts[i], &texts[j]);
            for (d, keep) in differ[i].iter_mut().zip(in_a) {
                *d |= !keep;
            }
            for (d, keep) in differ[j].iter_mut().zip(in_b) {
                *d |= !keep;
            }
        }
    }
    options
        .iter()
        .zip(differ)
        .map(|(ls, d)| {
            ls.iter()
                .zip(d)
                .map(|(l, d)| {
                    let w = l.width();
                    let mut marks = Vec::new();
                    if d && w > 0 {
                        marks.push(0..w);
                    }
                    marks
                })
                .collect()
        })
        .collect()
}

/// Which entries of `a` and of `b` belong to a longest common subsequence of the two.
pub(crate) fn common_rows<T: PartialEq>(a: &[T], b: &[T]) -> (Vec<bool>, Vec<bool>) {
    let (n, m) = (a.len(), b.len());
    // lcs[i][j]: length of the LCS of a[i..] and b[j..]
    let mut lcs = vec![vec![0u32; m + 1]; n + 1];
    for i in (0..n).rev() {
        for j in (0..m).rev() {
            lcs[i][j] = if a[i] == b[j] {
                lcs[i + 1][j + 1] + 1
            } else {
                lcs[i + 1][j].max(lcs[i][j + 1])
            };
        }
    }
    let (mut in_a, mut in_b) = (vec![false; n], vec![false; m]);
    let (mut i, mut j) = (0, 0);
    while i < n && j < m {
        if a[i] == b[j] {
            in_a[i] = true;
            in_b[j] = true;
            i += 1;
            j += 1;
        } else if lcs[i + 1][j] >= lcs[i][j + 1] {
            i += 1;
        } else {
            j += 1;
        }
    }
    (in_a, in_b)
}

/// A row as one string per display column (`""` for the right half of a wide grapheme).
fn grid_row(line: &Line) -> Vec<String> {
    let mut out = Vec::new();
    for span in &line.spans {
        for (g, w) in clusters(&span.text) {
            if w == 0 {
                if let Some(last) = out.last_mut() {
                    let last: &mut String = last;
                    last.push_str(g);
                }
                continue;
            }
            out.push(g.to_string());
            if w == 2 {
                out.push(String::new());
            }
        }
    }
    out
}

fn blank(c: Option<&String>) -> bool {
    c.is_none_or(|c| c == " ")
}

/// Cells of row `a` that differ from row `b`.
fn differing(a: &[String], b: &[String]) -> usize {
    (0..a.len().max(b.len()))
        .filter(|&k| {
            let (x, y) = (a.get(k), b.get(k));
            !(x == y || blank(x) && blank(y))
        })
        .count()
}

/// Cells drawn in a row (what a row with no counterpart costs).
fn drawn(a: &[String]) -> usize {
    a.iter().filter(|c| !blank(Some(c))).count()
}

/// Rows of `a` matched to rows of `b` in order, at the least cost of differing cells.
fn align(a: &[Vec<String>], b: &[Vec<String>]) -> Vec<Option<usize>> {
    let (n, m) = (a.len(), b.len());
    let gap_a: Vec<usize> = a.iter().map(|r| drawn(r) + 1).collect();
    let gap_b: Vec<usize> = b.iter().map(|r| drawn(r) + 1).collect();
    // cost[i][j]: least cost of aligning a[i..] with b[j..]
    let mut cost = vec![vec![0usize; m + 1]; n + 1];
    for i in (0..n).rev() {
        cost[i][m] = cost[i + 1][m] + gap_a[i];
    }
    for j in (0..m).rev() {
        cost[n][j] = cost[n][j + 1] + gap_b[j];
    }
    for i in (0..n).rev() {
        for j in (0..m).rev() {
            let pair = if a[i] == b[j] {
                0
            } else {
                differing(&a[i], &b[j])
            };
            cost[i][j] = (cost[i + 1][j + 1] + pair)
                .min(cost[i + 1][j] + gap_a[i])
                .min(cost[i][j + 1] + gap_b[j]);
        }
    }
    let mut matched = vec![None; n];
    let (mut i, mut j) = (0, 0);
    while i < n && j < m {
        let pair = if a[i] == b[j] {
            0
        } else {
            differing(&a[i], &b[j])
        };
        if cost[i][j] == cost[i + 1][j + 1] + pair {
            matched[i] = Some(j);
            i += 1;
            j += 1;
        } else if cost[i][j] == cost[i + 1][j] + gap_a[i] {
            i += 1;
        } else {
            j += 1;
        }
    }
    matched
}

/// Cell marks for drawings: each option against every other laid out like it (see
/// [`APART`]); an option laid out like none of the others is `apart`, unmarked.
pub(crate) fn cell_marks(options: &[&[Line]]) -> Differences {
    let grids: Vec<Vec<Vec<String>>> = options
        .iter()
        .map(|ls| ls.iter().map(grid_row).collect())
        .collect();
    let n = grids.len();
    let drawn_cells: Vec<usize> = grids
        .iter()
        .map(|g| g.iter().map(|r| drawn(r)).sum())
        .collect();
    // against[i][j]: the cells of option i that differ from option j, and their share
    let mut against: Vec<Vec<Option<Against>>> = vec![vec![None; n]; n];
    for i in 0..n {
        for j in (0..n).filter(|&j| j != i) {
            let (a, b) = (&grids[i], &grids[j]);
            let flags: Vec<Vec<bool>> = align(a, b)
                .into_iter()
                .enumerate()
                .map(|(ra, m)| match m {
                    Some(rb) => cells_apart(&a[ra], &b[rb]),
                    None => a[ra].iter().map(|c| !blank(Some(c))).collect(),
                })
                .collect();
            let marked: usize = flags.iter().flatten().filter(|f| **f).count();
            #[allow(clippy::cast_precision_loss)] // cell counts are small
            let share = marked as f64 / drawn_cells[i].max(1) as f64;
            against[i][j] = Some((flags, share));
        }
    }
    let share = |i: usize, j: usize| against[i][j].as_ref().map_or(1.0, |x| x.1);
    let alike = |i: usize, j: usize| i != j && share(i, j) <= APART && share(j, i) <= APART;
    let mut marks = Vec::with_capacity(n);
    let mut apart = Vec::with_capacity(n);
    for i in 0..n {
        let mut flags: Vec<Vec<bool>> = grids[i].iter().map(|r| vec![false; r.len()]).collect();
        let partners: Vec<usize> = (0..n).filter(|&j| alike(i, j)).collect();
        for &j in &partners {
            if let Some((theirs, _)) = &against[i][j] {
                for (mine, other) in flags.iter_mut().zip(theirs) {
                    for (m, o) in mine.iter_mut().zip(other) {
                        *m |= *o;
                    }
                }
            }
        }
        apart.push(n > 1 && partners.is_empty());
        marks.push(flags.iter().map(|r| ranges(r)).collect());
    }
    Differences { marks, apart }
}

/// The cells of one drawing that differ from another (per row), and their share of its
/// drawn cells.
type Against = (Vec<Vec<bool>>, f64);

/// A row cut into what is compared as a whole: a word (letters, digits, `_`) as one
/// token, any other cell as its own. (start cell, cells, text)
fn tokens(row: &[String]) -> Vec<(usize, usize, String)> {
    let word = |c: &str| c.chars().all(|ch| ch.is_alphanumeric() || ch == '_') && !c.is_empty();
    let mut out: Vec<(usize, usize, String)> = Vec::new();
    for (k, cell) in row.iter().enumerate() {
        match out.last_mut() {
            Some((start, len, text)) if word(cell) && *start + *len == k && word(text) => {
                *len += 1;
                text.push_str(cell);
            }
            _ => {
                let text = if blank(Some(cell)) {
                    " ".to_string()
                } else {
                    cell.clone()
                };
                out.push((k, 1, text));
            }
        }
    }
    out
}

/// The cells of row `a` outside a longest common subsequence of tokens with row `b`
/// (words whole, other cells one by one; the shorter row taken as padded with blanks):
/// what a shifted box or a longer label moves along is kept, what changed is marked, and
/// a word is never half matched by letters another word happens to share.
fn cells_apart(a: &[String], b: &[String]) -> Vec<bool> {
    if a == b {
        return vec![false; a.len()];
    }
    let (mut ta, mut tb) = (tokens(a), tokens(b));
    let pad = |t: &mut Vec<(usize, usize, String)>, from: usize, to: usize| {
        t.extend((from..to).map(|k| (k, 1, " ".to_string())));
    };
    let len = a.len().max(b.len());
    pad(&mut ta, a.len(), len);
    pad(&mut tb, b.len(), len);
    let (n, m) = (ta.len(), tb.len());
    let w = m + 1;
    // lcs[i][j]: longest common subsequence of ta[i..] and tb[j..]
    let mut lcs = vec![0u16; (n + 1) * w];
    for i in (0..n).rev() {
        for j in (0..m).rev() {
            lcs[i * w + j] = if ta[i].2 == tb[j].2 {
                lcs[(i + 1) * w + j + 1] + 1
            } else {
                lcs[(i + 1) * w + j].max(lcs[i * w + j + 1])
            };
        }
    }
    let mut differs = vec![true; len];
    let (mut i, mut j) = (0, 0);
    while i < n && j < m {
        if ta[i].2 == tb[j].2 {
            let (start, cells, _) = ta[i];
            differs[start..start + cells].fill(false);
            i += 1;
            j += 1;
        } else if lcs[(i + 1) * w + j] >= lcs[i * w + j + 1] {
            i += 1;
        } else {
            j += 1;
        }
    }
    differs.truncate(a.len());
    // a blank that matched nothing is no difference of its own
    for (d, cell) in differs.iter_mut().zip(a) {
        *d &= !blank(Some(cell));
    }
    differs
}

/// The marks of one option kept only where what it says differs (see
/// [`crate::what_differs`]): `differing` are the items this option has that
/// another lacks (or has elsewhere), `same` those every option has. Kept: the cell marks
/// on words of `differing` and on the arrows, heads and corners drawn with them, never on
/// a lifeline or an edge that only passes a row; added: every word only `differing`
/// says (not `same`), wherever the drawing shows it (drawings laid out apart have no cell
/// marks). An option with nothing another lacks gets none: a participant another option
/// lacks shifts every row's cells, and says nothing about this one.
pub fn within(lines: &[Line], marks: &Marks, differing: &[&str], same: &[String]) -> Marks {
    if differing.is_empty() {
        return vec![Vec::new(); lines.len()];
    }
    let split = |t: &str| -> Vec<String> {
        t.split(|c: char| !(c.is_alphanumeric() || c == '_'))
            .filter(|w| !w.is_empty())
            .map(str::to_string)
            .collect()
    };
    let words: HashSet<String> = differing.iter().flat_map(|t| split(t)).collect();
    let common: HashSet<String> = same.iter().flat_map(|t| split(t)).collect();
    let word = |t: &str| !t.is_empty() && t.chars().all(|c| c.is_alphanumeric() || c == '_');
    let none = Vec::new();
    lines
        .iter()
        .enumerate()
        .map(|(n, line)| {
            let row_marks = marks.get(n).unwrap_or(&none);
            let row = grid_row(line);
            let mut flags = vec![false; row.len()];
            for (start, cells, text) in tokens(&row) {
                let marked =
                    (start..start + cells).any(|k| row_marks.iter().any(|r| r.contains(&k)));
                let keep = if word(&text) {
                    words.contains(&text) && (marked || !common.contains(&text))
                } else {
                    marked && text != " " && !passes_down(&text)
                };
                if keep {
                    flags[start..start + cells].fill(true);
                }
            }
            ranges(&flags)
        })
        .collect()
}

/// The marks of one option, by what it says (see [`crate::what_differs`]): in a graph
/// drawing, on the labels and edge lines of `differing` (the items this option has that
/// another lacks) wherever they are drawn, never on a label every option has; elsewhere
/// as [`within`] keeps them. `drawn` is the option as rendered from `source` for `opts`.
/// Sequence options drawn on columns shared with their siblings are marked by
/// [`marks_of_option`].
pub fn marks_of(
    source: &str,
    drawn: &Rendered,
    opts: &RenderOptions,
    marks: &Marks,
    differing: &[&str],
    same: &[String],
) -> Marks {
    marks_of_option(&[source], 0, drawn, opts, marks, differing, same)
}

/// [`marks_of`] for option `option` of the question whose options are `sources`, as
/// [`render_options`](crate::render_options) drew them: in a graph or sequence drawing, on
/// the labels, boxes and lines of `differing` wherever they are drawn (a message's text,
/// every row of it, and its arrow; a participant's box, not the lifeline under it), never
/// on what every option says; elsewhere as [`within`] keeps them.
pub fn marks_of_option(
    sources: &[&str],
    option: usize,
    drawn: &Rendered,
    opts: &RenderOptions,
    marks: &Marks,
    differing: &[&str],
    same: &[String],
) -> Marks {
    if differing.is_empty() {
        return vec![Vec::new(); drawn.lines.len()];
    }
    if drawn.form == Form::Compact && sources.len() > 1 {
        return listed_marks(sources, option, drawn, opts);
    }
    let again = |shown| shown_cells(sources, option, drawn, opts, differing, shown);
    let Some(labels) = again(Shown::Labels) else {
        return within(&drawn.lines, marks, differing, same);
    };
    // Edges drawn in another line can take another route: their cell marks then.
    let edges = match again(Shown::Edges) {
        Some(edges) if drawn.kind == DiagramKind::Sequence => whole_arrows(&drawn.lines, &edges),
        Some(edges) => edges,
        None => marked_lines(&drawn.lines, marks),
    };
    let shown: Vec<Vec<bool>> = labels
        .iter()
        .zip(&edges)
        .map(|(l, e)| l.iter().zip(e).map(|(l, e)| *l || *e).collect())
        .collect();
    if drawn.kind == DiagramKind::Sequence {
        let shown = with_boxes(&drawn.lines, shown);
        return by_structure(&drawn.lines, &shown, Words::Joined);
    }
    by_structure(&drawn.lines, &shown, Words::Apart)
}

/// A listed option's marks: each row that another option's listing lacks (or has fewer
/// times), whole. Rows are compared without their autonumber (a message sent earlier
/// renumbers every later one) and the legend under the list is not compared. Options that
/// are no diagram are left out.
fn listed_marks(sources: &[&str], option: usize, drawn: &Rendered, opts: &RenderOptions) -> Marks {
    let mine = listed_rows(&drawn.lines);
    let others: Vec<Vec<String>> = sources
        .iter()
        .enumerate()
        .filter(|&(i, _)| i != option)
        .map(|(_, s)| crate::render_compact(s, opts))
        .filter(|r| r.form == Form::Compact)
        .map(|r| listed_rows(&r.lines).into_iter().flatten().collect())
        .collect();
    let mut seen: std::collections::HashMap<&str, usize> = std::collections::HashMap::new();
    drawn
        .lines
        .iter()
        .zip(&mine)
        .map(|(line, key)| {
            let Some(key) = key else {
                return Vec::new();
            };
            let n = seen.entry(key.as_str()).or_insert(0);
            *n += 1;
            let lacking = others
                .iter()
                .any(|rows| rows.iter().filter(|r| *r == key).count() < *n);
            if !lacking {
                return Vec::new();
            }
            let row = grid_row(line);
            let start = row.iter().position(|c| !blank(Some(c))).unwrap_or(0);
            let end = row
                .iter()
                .rposition(|c| !blank(Some(c)))
                .map_or(0, |e| e + 1);
            std::iter::once(start..end).collect()
        })
        .collect()
}

/// Each row of a listing as it is compared (`None` for a blank row and the legend under
/// the list): its words, without an autonumber.
fn listed_rows(lines: &[Line]) -> Vec<Option<String>> {
    let legend = lines.iter().rev().take_while(|l| dim(l)).count();
    lines
        .iter()
        .enumerate()
        .map(|(k, line)| {
            let text = line.text();
            let words: Vec<&str> = text.split_whitespace().filter(|w| !autonumber(w)).collect();
            (k + legend < lines.len() && !words.is_empty()).then(|| words.join(" "))
        })
        .collect()
}

/// A message's number in a listing (`12.`).
fn autonumber(word: &str) -> bool {
    word.strip_suffix('.')
        .is_some_and(|n| !n.is_empty() && n.chars().all(|c| c.is_ascii_digit()))
}

/// The cells of lines, arrows and corners (not of a line passing down) that the cell
/// marks cover.
fn marked_lines(lines: &[Line], marks: &Marks) -> Vec<Vec<bool>> {
    let none = Vec::new();
    lines
        .iter()
        .enumerate()
        .map(|(n, line)| {
            let row_marks = marks.get(n).unwrap_or(&none);
            grid_row(line)
                .iter()
                .enumerate()
                .map(|(k, cell)| {
                    row_marks.iter().any(|r| r.contains(&k))
                        && line_glyph(cell)
                        && !passes_down(cell)
                })
                .collect()
        })
        .collect()
}

/// What a second drawing stands in for, to be found in the first.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Shown {
    /// labels, in stand-in letters
    Labels,
    /// edges, in another line
    Edges,
}

/// Per row and cell of a graph or sequence drawing: whether it shows an item of
/// `differing` (a label, an edge's line, as `shown` asks). Found by drawing option `option`
/// of `sources` again with those labels in stand-in letters or those edges in another
/// line: the cells that change are theirs. `None` when it is no such drawing, or the
/// second drawing differs anywhere else (it could not tell them apart then).
fn shown_cells(
    sources: &[&str],
    option: usize,
    drawn: &Rendered,
    opts: &RenderOptions,
    differing: &[&str],
    shown: Shown,
) -> Option<Vec<Vec<bool>>> {
    if drawn.form != Form::Drawing {
        return None;
    }
    let source = sources.get(option)?;
    let body = crate::strip_front_matter(source);
    let opts = RenderOptions {
        width: opts.width.max(crate::MIN_WIDTH),
        ascii: opts.ascii,
    };
    let nothing = || {
        drawn
            .lines
            .iter()
            .map(|l| vec![false; grid_row(l).len()])
            .collect()
    };
    let other = match drawn_again(sources, option, drawn, &opts, differing, shown) {
        Again::Drawn(other) => other,
        Again::Nothing => return Some(nothing()),
        Again::Cannot => return None,
    };
    let title = usize::from(body.title.is_some());
    // The legend under a drawing names the lines it mixes: not compared.
    let legend = |ls: &[Line]| ls.iter().rev().take_while(|l| dim(l)).count();
    let (mine, theirs) = (&drawn.lines[title..], &other[..]);
    let (mine, theirs) = (
        &mine[..mine.len() - legend(mine)],
        &theirs[..theirs.len() - legend(theirs)],
    );
    if mine.len() != theirs.len() {
        return None;
    }
    let mut cells: Vec<Vec<bool>> = nothing();
    for (row, (mine, theirs)) in cells[title..].iter_mut().zip(mine.iter().zip(theirs)) {
        let (a, b) = (grid_row(mine), grid_row(theirs));
        if a.len() != b.len() {
            return None;
        }
        let letters = |c: &str| c.chars().all(|ch| ch.is_ascii_alphanumeric());
        for ((flag, x), y) in row.iter_mut().zip(&a).zip(&b) {
            let shown = (letters(x) && letters(y)) || (line_glyph(x) && line_glyph(y));
            match (x == y, shown) {
                (true, _) => {}
                (false, true) => *flag = true,
                (false, false) => return None,
            }
        }
    }
    Some(cells)
}

/// A drawing drawn again with stand-ins (see [`drawn_again`]).
enum Again {
    /// the drawing with the differing items' stand-ins
    Drawn(Vec<Line>),
    /// no differing item is drawn so
    Nothing,
    /// it is no graph or sequence drawing
    Cannot,
}

impl From<Option<Vec<Line>>> for Again {
    fn from(lines: Option<Vec<Line>>) -> Self {
        lines.map_or(Again::Nothing, Again::Drawn)
    }
}

/// The drawing of option `option` of `sources` again, laid out as `drawn` is, with the
/// items `differing` in stand-in letters or another line (see [`shown_cells`]).
fn drawn_again(
    sources: &[&str],
    option: usize,
    drawn: &Rendered,
    opts: &RenderOptions,
    differing: &[&str],
    shown: Shown,
) -> Again {
    if drawn.kind == DiagramKind::Sequence {
        return match drawn_together(sources, option) {
            Some((bodies, at)) => {
                crate::sequence::drawn_with_stand_ins(&bodies, at, differing, shown, opts).into()
            }
            None => Again::Cannot,
        };
    }
    let graph = matches!(
        drawn.kind,
        DiagramKind::Flowchart | DiagramKind::State | DiagramKind::Class
    );
    let source = sources.get(option).filter(|_| graph);
    let Some((header, rest)) =
        source.and_then(|s| crate::split_header(crate::strip_front_matter(s).text))
    else {
        return Again::Cannot;
    };
    let want = match (drawn.regions == RegionLayout::Stacked, drawn.turned) {
        (true, true) => Want::StackedTurned,
        (true, false) => Want::StackedOwn,
        (false, true) => Want::Turned,
        (false, false) => Want::Own,
    };
    crate::graph::drawn_with_stand_ins(drawn.kind, header, rest, differing, shown, opts, want)
        .into()
}

/// The sequence bodies option `option` was laid out with, and its place among them: every
/// option's, when all are sequence diagrams within the caps (so
/// [`render_options`](crate::render_options) tried shared columns for them), else its own.
fn drawn_together<'a>(sources: &[&'a str], option: usize) -> Option<(Vec<&'a str>, usize)> {
    let body = |source: &'a str| -> Option<&'a str> {
        let body = crate::strip_front_matter(source);
        let statements = body.lines().filter(|l| !l.trim().is_empty()).count();
        if source.len() > crate::MAX_SOURCE_BYTES || statements > crate::MAX_STATEMENTS {
            return None;
        }
        let (header, rest) = crate::split_header(body.text)?;
        let keyword = header.split(|c: char| c.is_whitespace() || c == ';').next();
        (keyword == Some("sequenceDiagram")).then_some(rest)
    };
    match sources.iter().map(|s| body(s)).collect::<Option<Vec<_>>>() {
        Some(all) if all.len() > 1 => Some((all, option)),
        _ => Some((vec![body(sources.get(option)?)?], 0)),
    }
}

/// A sequence drawing's message arrows whole, from the cells of their lines that another
/// line changed (`edges`): the crossings between those cells, and the head and the
/// lifeline joint at either end.
fn whole_arrows(lines: &[Line], edges: &[Vec<bool>]) -> Vec<Vec<bool>> {
    lines
        .iter()
        .zip(edges)
        .map(|(line, changed)| {
            let row = grid_row(line);
            let mut flags = changed.clone();
            let (Some(first), Some(last)) = (
                changed.iter().position(|c| *c),
                changed.iter().rposition(|c| *c),
            ) else {
                return flags;
            };
            let drawn = |k: usize| row.get(k).is_some_and(|c| !blank(Some(c)));
            if (first..=last).all(|k| changed[k] || (drawn(k) && line_glyph(&row[k]))) {
                flags[first..=last].fill(true);
            }
            let ends = [first.checked_sub(1), Some(last + 1)];
            for k in ends.into_iter().flatten() {
                if drawn(k) && !passes_down(&row[k]) && k < flags.len() {
                    flags[k] = true;
                }
            }
            flags
        })
        .collect()
}

/// `shown` and the boxes holding only text it shows whole (a participant's, a note's):
/// frame and all, so a participant only one option has reads as its box, not as a name.
fn with_boxes(lines: &[Line], mut shown: Vec<Vec<bool>>) -> Vec<Vec<bool>> {
    let grid: Vec<Vec<String>> = lines.iter().map(grid_row).collect();
    let mut boxes = HashSet::new();
    for (r, row) in shown.iter().enumerate() {
        for (c, _) in row.iter().enumerate().filter(|(_, s)| **s) {
            boxes.extend(text_box(&grid, r, c));
        }
    }
    for (top, bottom, left, right) in boxes {
        for row in &mut shown[top..=bottom] {
            let end = (right + 1).min(row.len());
            row[left.min(end)..end].fill(true);
        }
    }
    shown
}

/// The box (top, bottom, left, right) around the text at `row`, `col`: a frame of lines
/// whose inside holds only text (no lifeline, arrow or frame of its own).
fn text_box(grid: &[Vec<String>], row: usize, col: usize) -> Option<(usize, usize, usize, usize)> {
    let at = |r: usize, c: usize| grid.get(r).and_then(|g| g.get(c)).map(String::as_str);
    let lined = |r: usize, c: usize| at(r, c).is_some_and(line_glyph);
    if lined(row, col) {
        return None;
    }
    let left = (0..col).rev().find(|&c| lined(row, c))?;
    let right = (col + 1..grid[row].len()).find(|&c| lined(row, c))?;
    let top = (0..row).rev().find(|&r| at(r, left) != Some("│"))?;
    let bottom = (row + 1..grid.len()).find(|&r| at(r, left) != Some("│"))?;
    let corners = [
        at(top, left),
        at(top, right),
        at(bottom, left),
        at(bottom, right),
    ];
    let sides = (top + 1..bottom).all(|r| at(r, left) == Some("│") && at(r, right) == Some("│"));
    let rules = (left + 1..right).all(|c| lined(top, c) && lined(bottom, c));
    let inside = (top + 1..bottom).all(|r| (left + 1..right).all(|c| !lined(r, c)));
    // square for a participant or note, round for an actor
    let framed = corners == [Some("┌"), Some("┐"), Some("└"), Some("┘")]
        || corners == [Some("╭"), Some("╮"), Some("╰"), Some("╯")];
    (framed && sides && rules && inside).then_some((top, bottom, left, right))
}

/// A drawing's marks from `shown` (its cells showing a differing item, see
/// [`shown_cells`]): each piece of text holding such a cell whole, and the lines of
/// differing edges.
fn by_structure(lines: &[Line], shown: &[Vec<bool>], words: Words) -> Marks {
    lines
        .iter()
        .zip(shown)
        .map(|(line, shown)| {
            let row = grid_row(line);
            let mut flags = shown.clone();
            let marked: Vec<(usize, usize)> = pieces(&row)
                .into_iter()
                .filter(|&(start, end)| shown[start..end].contains(&true))
                .collect();
            for &(start, end) in &marked {
                flags[start..end].fill(true);
            }
            if let (Words::Joined, Some(first), Some(last)) = (words, marked.first(), marked.last())
                && !row[first.0..last.1].iter().any(|c| line_glyph(c))
            {
                flags[first.0..last.1].fill(true);
            }
            ranges(&flags)
        })
        .collect()
}

/// Whether the marked pieces of text of a row are marked as one (with the spaces and
/// signs between them), as a sequence drawing's row holds one label, or each apart.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Words {
    Joined,
    Apart,
}

/// A line all of one dim style (a legend's, a note's).
fn dim(line: &Line) -> bool {
    line.spans.iter().all(|s| s.style == crate::Style::Dim)
}

/// A cell of a line, frame, arrow or head (box drawing, arrows, geometric shapes).
fn line_glyph(cell: &str) -> bool {
    cell.chars().next().is_some_and(|c| {
        ('\u{2500}'..='\u{25FF}').contains(&c) || ('\u{2190}'..='\u{21FF}').contains(&c)
    })
}

/// The pieces of text of a row (start, end): runs of cells neither blank nor line glyphs,
/// so `queue.Requeue(job,` is one piece and a label on a shaft is cut from it.
fn pieces(row: &[String]) -> Vec<(usize, usize)> {
    let mut out: Vec<(usize, usize)> = Vec::new();
    for (k, cell) in row.iter().enumerate() {
        let text = !blank(Some(cell)) && !line_glyph(cell);
        if !text {
            continue;
        }
        match out.last_mut() {
            Some((_, end)) if *end == k => *end = k + 1,
            _ => out.push((k, k + 1)),
        }
    }
    out
}

/// Runs of `true` as ranges.
fn ranges(flags: &[bool]) -> Vec<Range<usize>> {
    let mut out: Vec<Range<usize>> = Vec::new();
    for (k, &f) in flags.iter().enumerate() {
        if !f {
            continue;
        }
        match out.last_mut() {
            Some(r) if r.end == k => r.end = k + 1,
            _ => out.push(k..k + 1),
        }
    }
    out
}

/// A cell of a line passing down (a lifeline, a frame's side): not what an edge mark covers.
fn passes_down(t: &str) -> bool {
    matches!(t, "│" | "┆" | "┊" | "╎" | "┃" | "║" | "|" | ":")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{RenderOptions, render_options};

    fn opts(width: usize) -> RenderOptions {
        RenderOptions {
            width,
            ascii: false,
        }
    }

    #[test]
    fn rows_that_differ_in_lists() {
        let a = [Line::styled("A ──▶ B", crate::Style::Plain)];
        let b = [Line::styled("A ┄┄▶ B", crate::Style::Plain)];
        let same = [Line::styled("A ──▶ B", crate::Style::Plain)];
        let marks = row_marks(&[&a, &b, &same]);
        assert_eq!(marks[0], vec![vec![0..7]]);
        assert_eq!(marks[1], vec![vec![0..7]]);
        assert_eq!(marks[2], vec![vec![0..7]]);
        let marks = row_marks(&[&a, &same]);
        assert!(marks.iter().flatten().all(Vec::is_empty));
    }

    #[test]
    fn drawings_mark_only_the_cells_that_differ() {
        let a = "graph LR\nA[start] --> B[end]";
        let b = "graph LR\nA[start] -.-> B[end]";
        let r = render_options(&[a, b, a, a], &opts(80));
        assert!(r.iter().all(|r| r.form == Form::Drawing));
        let marks = differences(&r).marks;
        let marked = |m: &Marks| {
            m.iter()
                .flatten()
                .map(ExactSizeIterator::len)
                .sum::<usize>()
        };
        // the shaft differs (and the legend only the dotted option has), nothing else
        assert!(marked(&marks[1]) > 0);
        assert!(marked(&marks[1]) < 40, "{:?}", marks[1]);
        assert_eq!(marked(&marks[0]), marked(&marks[2]));
    }

    #[test]
    fn an_inserted_row_shifts_without_marking_the_rest() {
        let a = "sequenceDiagram\nA->>B: one\nB-->>A: two";
        let b = "sequenceDiagram\nA->>B: one\nB->>A: new\nB-->>A: two";
        let r = render_options(&[a, b], &opts(60));
        let marks = differences(&r).marks;
        let rows_marked = |m: &Marks| m.iter().filter(|r| !r.is_empty()).count();
        // the new message's label and arrow rows
        assert_eq!(rows_marked(&marks[1]), 2, "{:?}", marks[1]);
        assert_eq!(rows_marked(&marks[0]), 0, "{:?}", marks[0]);
    }

    /// A word is compared whole: "fetch issue comments" against "pick newest trusted
    /// quiz" marks every letter, not the letters the two happen to share.
    #[test]
    fn words_are_never_half_matched() {
        let row = |s: &str| grid_row(&Line::styled(s, crate::Style::Plain));
        let a = row("│ fetch issue comments │");
        let b = row("│ pick newest trusted quiz │");
        let flags = cells_apart(&a, &b);
        let letters: Vec<bool> = a
            .iter()
            .zip(&flags)
            .filter(|(c, _)| c.chars().all(char::is_alphabetic))
            .map(|(_, f)| *f)
            .collect();
        assert!(letters.iter().all(|f| *f), "{flags:?}");
        // a box only shifted right by a longer label elsewhere is not marked
        let c = row("│ fetch issue comments │");
        let d = row("   │ fetch issue comments │");
        assert!(!cells_apart(&c, &d).contains(&true));
    }

    /// Three options alike but for one edge, and one laid out differently: the three mark
    /// their edge, the fourth is apart and unmarked (it would be marked nearly everywhere).
    #[test]
    fn an_option_laid_out_differently_is_apart() {
        let a = "graph TD\nA[start] --> B[middle]\nB --> C[end]";
        let b = "graph TD\nA[start] -.-> B[middle]\nB --> C[end]";
        let d = "graph TD\nC[end] --> B[middle]\nC --> A[start]\nA --> X[somewhere else entirely]";
        let r = render_options(&[a, b, a, d], &opts(80));
        assert!(r.iter().all(|r| r.form == Form::Drawing));
        let diff = differences(&r);
        assert_eq!(diff.apart, vec![false, false, false, true]);
        let marked = |m: &Marks| {
            m.iter()
                .flatten()
                .map(ExactSizeIterator::len)
                .sum::<usize>()
        };
        assert!(marked(&diff.marks[1]) > 0);
        assert!(marked(&diff.marks[1]) < 40, "{:?}", diff.marks[1]);
        assert_eq!(marked(&diff.marks[3]), 0);
    }
}
