//! Rust expressions written straight to text, broken into lines as `prettyplease` breaks them.
//!
//! The operation statics are most of an operation module's text. Quoted into tokens, parsed back
//! into a syntax tree and printed, they were most of the module's cost; built here as a small
//! expression tree and laid out directly, they cost a walk. The layout is prettyplease's: the
//! same boxes and breaks it opens for each kind of expression, measured and broken by the same
//! (Oppen's) rule, so the text is byte for byte the one printing the tokens gives. The tests hold
//! every kind to prettyplease's own output at every width that changes a decision.

/// prettyplease's line width, indentation step and least room on a line.
const MARGIN: isize = 89;
const INDENT: isize = 4;
const MIN_SPACE: isize = 60;
/// The size of what never fits: a hard line break, a struct wider than its limit.
const INFINITY: isize = 0xffff;

/// An expression of a generated static.
#[derive(Clone, Debug)]
pub(super) enum Expr {
    /// What prints as one word: a path, a string literal, `true`.
    Word(String),
    /// An integer literal (arrays of these are filled, not broken one per line).
    Int(String),
    /// `f(args)`.
    Call(&'static str, Vec<Expr>),
    /// `Path { name: value, …, ..rest }`.
    Struct(&'static str, Vec<(&'static str, Expr)>, Option<&'static str>),
    /// `[a, b]`.
    Array(Vec<Expr>),
    /// `&e`.
    Ref(Box<Expr>),
    /// `(a, b)`.
    Tuple(Vec<Expr>),
}

impl Expr {
    /// A path or other word.
    pub(super) fn word(text: &str) -> Expr {
        Expr::Word(text.to_owned())
    }

    /// A string literal, escaped as `quote` escapes it.
    pub(super) fn str(text: &str) -> Expr {
        Expr::Word(proc_macro2::Literal::string(text).to_string())
    }

    /// `true` or `false`.
    pub(super) fn bool(b: bool) -> Expr {
        Expr::Word(if b { "true" } else { "false" }.to_owned())
    }

    /// A suffixed integer literal, as `quote` writes a `u16` or `u64` (`404u16`).
    pub(super) fn int(n: impl std::fmt::Display, suffix: &str) -> Expr {
        Expr::Int(format!("{n}{suffix}"))
    }

    /// `::core::option::Option::Some(e)`.
    pub(super) fn some(e: Expr) -> Expr {
        Expr::Call("::core::option::Option::Some", vec![e])
    }

    /// `::core::option::Option::None`.
    pub(super) fn none() -> Expr {
        Expr::word("::core::option::Option::None")
    }

    /// `&[elems]`.
    pub(super) fn slice(elems: Vec<Expr>) -> Expr {
        Expr::Ref(Box::new(Expr::Array(elems)))
    }

    /// `&self`.
    pub(super) fn reference(self) -> Expr {
        Expr::Ref(Box::new(self))
    }

    /// Expressions a single call argument is printed after `(` without a box of its own.
    fn blocklike(&self) -> bool {
        matches!(self, Expr::Struct(..) | Expr::Array(_) | Expr::Tuple(_))
    }

    fn tokens<'a>(&'a self, s: &mut Stream<'a>) {
        match self {
            Expr::Word(w) | Expr::Int(w) => s.word(w),
            Expr::Call(f, args) => {
                s.word(f);
                s.word("(");
                match args.as_slice() {
                    [one] if one.blocklike() => one.tokens(s),
                    _ => s.list(args, |e, s| e.tokens(s)),
                }
                s.word(")");
            }
            Expr::Struct(path, fields, rest) => {
                s.cbox(INDENT);
                s.ibox(-INDENT);
                s.word(path);
                s.end();
                s.word(" {");
                s.brk(Break { blank: 1, if_nonempty: true, ..Break::default() });
                for (i, (name, value)) in fields.iter().enumerate() {
                    s.word(name);
                    s.word(": ");
                    s.ibox(0);
                    value.tokens(s);
                    s.end();
                    match i + 1 == fields.len() && rest.is_none() {
                        true => s.brk(Break { blank: 1, pre: Some(','), ..Break::default() }),
                        false => s.comma_space(),
                    }
                }
                if let Some(rest) = rest {
                    s.word("..");
                    s.word(rest);
                    s.brk(Break { blank: 1, ..Break::default() });
                }
                s.offset(-INDENT);
                s.end_with_max_width(34);
                s.word("}");
            }
            Expr::Array(elems) if elems.is_empty() => s.word("[]"),
            Expr::Array(elems) if elems.iter().all(|e| matches!(e, Expr::Int(_))) => {
                s.cbox(INDENT);
                s.word("[");
                s.brk(Break::default());
                s.ibox(0);
                for (i, e) in elems.iter().enumerate() {
                    e.tokens(s);
                    if i + 1 < elems.len() {
                        s.comma_space();
                    }
                }
                s.end();
                s.brk(Break { pre: Some(','), ..Break::default() });
                s.offset(-INDENT);
                s.word("]");
                s.end();
            }
            Expr::Array(elems) => {
                s.word("[");
                s.list(elems, |e, s| e.tokens(s));
                s.word("]");
            }
            Expr::Ref(e) => {
                s.word("&");
                e.tokens(s);
            }
            Expr::Tuple(elems) => {
                s.word("(");
                s.cbox(INDENT);
                s.brk(Break::default());
                for (i, e) in elems.iter().enumerate() {
                    e.tokens(s);
                    if elems.len() == 1 {
                        s.word(",");
                        s.brk(Break::default());
                    } else if i + 1 == elems.len() {
                        s.brk(Break { pre: Some(','), ..Break::default() });
                    } else {
                        s.comma_space();
                    }
                }
                s.offset(-INDENT);
                s.end();
                s.word(")");
            }
        }
    }
}

/// `/// doc` and `pub static NAME: TYPE = value;` inside `depth` modules, each line indented
/// and ended as in the printed module.
pub(super) fn static_item(depth: usize, doc: &str, name: &str, ty: &str, value: &Expr) -> String {
    let indent = INDENT * depth as isize;
    let mut s = Stream::default();
    s.cbox(0);
    s.word("pub ");
    s.word("static ");
    s.word(name);
    s.word(": ");
    s.word(ty);
    s.word(" = ");
    s.brk(Break { never: true, ..Break::default() });
    value.tokens(&mut s);
    s.word(";");
    s.end();
    s.brk(Break { blank: INFINITY, ..Break::default() });
    s.measure();
    let pad = " ".repeat(indent as usize);
    format!("{pad}///{doc}\n{}", s.print(indent))
}

/// A line break prettyplease may take.
#[derive(Clone, Copy, Default)]
struct Break {
    offset: isize,
    blank: isize,
    pre: Option<char>,
    if_nonempty: bool,
    never: bool,
}

#[derive(Clone, Copy)]
enum Tok<'a> {
    Str(&'a str),
    Break(Break),
    Begin { offset: isize, consistent: bool },
    End,
}

/// The tokens of one item with their sizes, measured as prettyplease measures them: a string by
/// its bytes; a break or a box up to the next break outside it.
#[derive(Default)]
struct Stream<'a> {
    toks: Vec<Tok<'a>>,
    sizes: Vec<isize>,
    /// The boxes and breaks not yet measured, newest last (prettyplease's scan stack).
    open: Vec<usize>,
    total: isize,
}

impl<'a> Stream<'a> {
    fn push(&mut self, tok: Tok<'a>, size: isize) -> usize {
        self.toks.push(tok);
        self.sizes.push(size);
        self.toks.len() - 1
    }

    fn word(&mut self, w: &'a str) {
        self.push(Tok::Str(w), w.len() as isize);
        self.total += w.len() as isize;
    }

    fn cbox(&mut self, offset: isize) {
        let at = self.push(Tok::Begin { offset, consistent: true }, -self.total);
        self.open.push(at);
    }

    fn ibox(&mut self, offset: isize) {
        let at = self.push(Tok::Begin { offset, consistent: false }, -self.total);
        self.open.push(at);
    }

    fn end(&mut self) {
        let n = self.toks.len();
        if let Some(Tok::Break(b)) = self.toks.last().copied() {
            if n >= 2 && matches!(self.toks[n - 2], Tok::Begin { .. }) {
                // An empty box: gone, with its break.
                self.toks.truncate(n - 2);
                self.sizes.truncate(n - 2);
                self.open.truncate(self.open.len() - 2);
                self.total -= b.blank;
                return;
            }
            if b.if_nonempty {
                self.toks.pop();
                self.sizes.pop();
                self.open.pop();
                self.total -= b.blank;
            }
        }
        let at = self.push(Tok::End, -1);
        self.open.push(at);
    }

    fn brk(&mut self, b: Break) {
        self.measure();
        let at = self.push(Tok::Break(b), -self.total);
        self.open.push(at);
        self.total += b.blank;
    }

    fn comma_space(&mut self) {
        self.word(",");
        self.brk(Break { blank: 1, ..Break::default() });
    }

    /// `e, e, e` broken one per line when it does not fit, with a trailing comma then.
    fn list(&mut self, elems: &'a [Expr], each: impl Fn(&'a Expr, &mut Self)) {
        self.cbox(INDENT);
        self.brk(Break::default());
        for (i, e) in elems.iter().enumerate() {
            each(e, self);
            match i + 1 == elems.len() {
                true => self.brk(Break { pre: Some(','), ..Break::default() }),
                false => self.comma_space(),
            }
        }
        self.offset(-INDENT);
        self.end();
    }

    fn offset(&mut self, offset: isize) {
        if let Some(Tok::Break(b)) = self.toks.last_mut() {
            b.offset += offset;
        }
    }

    /// Ends a box that breaks whenever it is wider than `max` (a struct literal).
    fn end_with_max_width(&mut self, max: isize) {
        let mut depth = 1;
        for &at in self.open.iter().rev() {
            match self.toks[at] {
                Tok::Begin { .. } => {
                    depth -= 1;
                    if depth == 0 {
                        if self.sizes[at] < 0 && self.sizes[at] + self.total > max {
                            self.push(Tok::Str(""), INFINITY);
                            self.total += INFINITY;
                        }
                        break;
                    }
                }
                Tok::End => depth += 1,
                _ => {}
            }
        }
        self.end();
    }

    /// Sizes the boxes and breaks a break ends (prettyplease's `check_stack(0)`).
    fn measure(&mut self) {
        let mut depth = 0;
        while let Some(&at) = self.open.last() {
            match self.toks[at] {
                Tok::Begin { .. } => {
                    if depth == 0 {
                        break;
                    }
                    self.open.pop();
                    self.sizes[at] += self.total;
                    depth -= 1;
                }
                Tok::End => {
                    self.open.pop();
                    self.sizes[at] = 1;
                    depth += 1;
                }
                Tok::Break(_) => {
                    self.open.pop();
                    self.sizes[at] += self.total;
                    if depth == 0 {
                        break;
                    }
                }
                Tok::Str(_) => unreachable!("strings are never on the scan stack"),
            }
        }
    }

    /// The text, starting on a line indented by `indent`; the stream ends with a hard break.
    fn print(&self, indent: isize) -> String {
        let mut p = Print { out: String::new(), space: MARGIN - indent, indent, pending: indent, frames: Vec::new() };
        for (tok, &size) in self.toks.iter().zip(&self.sizes) {
            match *tok {
                Tok::Str(w) => p.string(w),
                Tok::Begin { offset, consistent } => p.begin(offset, consistent, size),
                Tok::End => p.end(),
                Tok::Break(b) => p.brk(b, size),
            }
        }
        p.out
    }
}

/// A box being printed: whether it fit on its line; the indentation to restore when it breaks.
#[derive(Clone, Copy)]
enum Frame {
    Fits,
    Broken { indent: isize, consistent: bool },
}

/// prettyplease's printing half: a box breaks when it does not fit the room left on its line.
struct Print {
    out: String,
    space: isize,
    indent: isize,
    pending: isize,
    frames: Vec<Frame>,
}

impl Print {
    fn begin(&mut self, offset: isize, consistent: bool, size: isize) {
        if size > self.space {
            self.frames.push(Frame::Broken { indent: self.indent, consistent });
            self.indent += offset;
        } else {
            self.frames.push(Frame::Fits);
        }
    }

    fn end(&mut self) {
        if let Some(Frame::Broken { indent, .. }) = self.frames.pop() {
            self.indent = indent;
        }
    }

    fn brk(&mut self, b: Break, size: isize) {
        let fits = b.never
            || match self.frames.last().copied().unwrap_or(Frame::Broken { indent: 0, consistent: false }) {
                Frame::Fits => true,
                Frame::Broken { consistent: true, .. } => false,
                Frame::Broken { consistent: false, .. } => size <= self.space,
            };
        if fits {
            self.pending += b.blank;
            self.space -= b.blank;
            return;
        }
        if let Some(pre) = b.pre {
            self.flush_indent();
            self.out.push(pre);
        }
        self.out.push('\n');
        let indent = self.indent + b.offset;
        self.pending = indent;
        self.space = (MARGIN - indent).max(MIN_SPACE);
    }

    fn string(&mut self, w: &str) {
        self.flush_indent();
        self.out.push_str(w);
        self.space -= w.len() as isize;
    }

    fn flush_indent(&mut self) {
        self.out.extend(std::iter::repeat_n(' ', self.pending as usize));
        self.pending = 0;
    }
}

#[cfg(test)]
mod tests;
