//! A formula compiled to postfix, evaluated on a stack.
//!
//! [`super::formula`] checks what a student types and rewrites it into a
//! plain text of numbers, names, `+ - * / ^`, parentheses and calls
//! `f(…)`, in which every convention of the lecture is already explicit
//! (products written out, powers grouped from the right, a leading minus
//! as `(0-1)*`). That text only needs the textbook precedence climb, done
//! here. An expression crate did this before; the one we had compiled its
//! tokenizer's regular expressions at run time and brought the whole
//! `regex` crate into the page (about 200 KB of its gzipped download), and
//! the others we found are unmaintained or count in integers.

/// What a variable of the compiled expression stands for.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Slot {
    Work,
    Processors,
    Constant(f64),
}

impl Slot {
    /// Its value at work `w` on `p` processors.
    pub fn value(self, w: f64, p: f64) -> f64 {
        match self {
            Slot::Work => w,
            Slot::Processors => p,
            Slot::Constant(c) => c,
        }
    }
}

/// A function of one number.
type Function = fn(f64) -> f64;

/// One step of the postfix program.
#[derive(Debug, Clone, Copy)]
enum Step {
    Number(f64),
    Slot(usize),
    Add,
    Subtract,
    Multiply,
    Divide,
    Power,
    Call(Function),
}

/// The functions the rewritten text may call.
const FUNCTIONS: &[(&str, Function)] = &[
    ("log2", f64::log2),
    ("ln", f64::ln),
    ("log10", f64::log10),
    ("sqrt", f64::sqrt),
    ("exp", f64::exp),
    ("abs", f64::abs),
];

/// A compiled formula: its program, the names of its variables (sorted,
/// each once) and what each stands for.
#[derive(Debug, Clone)]
pub struct Postfix {
    steps: Vec<Step>,
    names: Vec<String>,
    slots: Vec<Slot>,
    /// The deepest the stack gets.
    depth: usize,
}

impl Postfix {
    /// Compiles `text`, the rewritten formula; `slot` says what a name
    /// stands for (`None`: it is unknown).
    ///
    /// # Errors
    ///
    /// What cannot be read, for a text the rewriting should not have made.
    pub fn compile(text: &str, slot: impl Fn(&str) -> Option<Slot>) -> Result<Postfix, String> {
        let mut names: Vec<String> = Vec::new();
        let mut compiler = Compiler {
            chars: text.chars().collect(),
            at: 0,
            steps: Vec::new(),
            names: &mut names,
        };
        compiler.sum()?;
        if let Some(c) = compiler.peek() {
            return Err(format!("unexpected `{c}`"));
        }
        let mut steps = compiler.steps;
        // The names sorted, as they are listed; the slots renumbered so.
        let mut sorted = names.clone();
        sorted.sort();
        let mut slots = Vec::with_capacity(sorted.len());
        for name in &sorted {
            slots.push(slot(name).ok_or_else(|| format!("unknown name `{name}`"))?);
        }
        for step in &mut steps {
            if let Step::Slot(i) = step {
                // cannot fail: every name compiled is in `sorted`.
                *i = sorted.binary_search(&names[*i]).expect("a compiled name");
            }
        }
        let depth = max_depth(&steps);
        Ok(Postfix {
            steps,
            names: sorted,
            slots,
            depth,
        })
    }

    /// The names of its variables, sorted, each once.
    pub fn names(&self) -> &[String] {
        &self.names
    }

    /// Its value at work `w` on `p` processors.
    pub fn eval(&self, w: f64, p: f64) -> f64 {
        let mut stack: Vec<f64> = Vec::with_capacity(self.depth);
        for step in &self.steps {
            let value = match *step {
                Step::Number(x) => x,
                Step::Slot(i) => self.slots[i].value(w, p),
                Step::Call(f) => {
                    let x = stack.pop().unwrap_or(f64::NAN);
                    f(x)
                }
                operator => {
                    let b = stack.pop().unwrap_or(f64::NAN);
                    let a = stack.pop().unwrap_or(f64::NAN);
                    match operator {
                        Step::Add => a + b,
                        Step::Subtract => a - b,
                        Step::Multiply => a * b,
                        Step::Divide => a / b,
                        _ => a.powf(b),
                    }
                }
            };
            stack.push(value);
        }
        stack.pop().unwrap_or(f64::NAN)
    }
}

/// The deepest the stack gets running `steps`.
fn max_depth(steps: &[Step]) -> usize {
    let (mut depth, mut most) = (0usize, 0usize);
    for step in steps {
        match step {
            Step::Number(_) | Step::Slot(_) => depth += 1,
            Step::Call(_) => {}
            _ => depth = depth.saturating_sub(1),
        }
        most = most.max(depth);
    }
    most
}

/// Recursive descent over the rewritten text, writing postfix steps.
struct Compiler<'n> {
    chars: Vec<char>,
    at: usize,
    steps: Vec<Step>,
    names: &'n mut Vec<String>,
}

impl Compiler<'_> {
    fn peek(&self) -> Option<char> {
        self.chars.get(self.at).copied()
    }

    /// `product (± product)*`
    fn sum(&mut self) -> Result<(), String> {
        self.product()?;
        while let Some(c @ ('+' | '-')) = self.peek() {
            self.at += 1;
            self.product()?;
            self.steps
                .push(if c == '+' { Step::Add } else { Step::Subtract });
        }
        Ok(())
    }

    /// `power ((* or /) power)*`
    fn product(&mut self) -> Result<(), String> {
        self.power()?;
        while let Some(c @ ('*' | '/')) = self.peek() {
            self.at += 1;
            self.power()?;
            self.steps.push(if c == '*' {
                Step::Multiply
            } else {
                Step::Divide
            });
        }
        Ok(())
    }

    /// `operand (^ power)?`: powers group from the right.
    fn power(&mut self) -> Result<(), String> {
        self.operand()?;
        if self.peek() == Some('^') {
            self.at += 1;
            self.power()?;
            self.steps.push(Step::Power);
        }
        Ok(())
    }

    /// A number, a name, a call `f(…)` or `(…)`.
    fn operand(&mut self) -> Result<(), String> {
        match self.peek() {
            Some('(') => {
                self.at += 1;
                self.sum()?;
                self.close()
            }
            Some(c) if c.is_ascii_digit() || c == '.' => self.number(),
            Some(c) if c.is_alphabetic() || c == '_' => self.name(),
            Some(c) => Err(format!("unexpected `{c}`")),
            None => Err("the formula ends early".into()),
        }
    }

    fn close(&mut self) -> Result<(), String> {
        if self.peek() != Some(')') {
            return Err("a parenthesis is not closed".into());
        }
        self.at += 1;
        Ok(())
    }

    /// The characters from here on that `keep` accepts, consumed.
    fn take_while(&mut self, keep: impl Fn(char) -> bool) -> String {
        let start = self.at;
        while self.peek().is_some_and(&keep) {
            self.at += 1;
        }
        self.chars[start..self.at].iter().collect()
    }

    fn number(&mut self) -> Result<(), String> {
        let literal = self.take_while(|c| c.is_ascii_digit() || c == '.');
        let x = literal
            .parse()
            .map_err(|_| format!("`{literal}` is not a number"))?;
        self.steps.push(Step::Number(x));
        Ok(())
    }

    fn name(&mut self) -> Result<(), String> {
        let name = self.take_while(|c| c.is_alphanumeric() || c == '_');
        if self.peek() == Some('(') {
            let Some(&(_, f)) = FUNCTIONS.iter().find(|(n, _)| *n == name) else {
                return Err(format!("unknown function `{name}`"));
            };
            self.at += 1;
            self.sum()?;
            self.close()?;
            self.steps.push(Step::Call(f));
            return Ok(());
        }
        let i = match self.names.iter().position(|n| *n == name) {
            Some(i) => i,
            None => {
                self.names.push(name);
                self.names.len() - 1
            }
        };
        self.steps.push(Step::Slot(i));
        Ok(())
    }
}

#[cfg(all(test, not(target_arch = "wasm32")))]
mod tests {
    use super::*;
    use crate::core::presentation::draw::Draw;
    use proptest::prelude::*;

    /// A formula as a tree, evaluated directly: the reference.
    #[derive(Debug, Clone)]
    enum Tree {
        Number(f64),
        W,
        P,
        Binary(char, Box<Tree>, Box<Tree>),
        Call(usize, Box<Tree>),
    }

    fn precedence(op: char) -> u8 {
        match op {
            '+' | '-' => 1,
            '*' | '/' => 2,
            _ => 3,
        }
    }

    impl Tree {
        fn value(&self, w: f64, p: f64) -> f64 {
            match self {
                Tree::Number(x) => *x,
                Tree::W => w,
                Tree::P => p,
                Tree::Call(f, x) => FUNCTIONS[*f].1(x.value(w, p)),
                Tree::Binary(op, a, b) => {
                    let (a, b) = (a.value(w, p), b.value(w, p));
                    match op {
                        '+' => a + b,
                        '-' => a - b,
                        '*' => a * b,
                        '/' => a / b,
                        _ => a.powf(b),
                    }
                }
            }
        }

        /// The text with as few parentheses as the precedences allow, so
        /// that the parser's climb is what is tested.
        fn text(&self) -> String {
            match self {
                Tree::Number(x) => format!("{x}"),
                Tree::W => "W".into(),
                Tree::P => "p".into(),
                Tree::Call(f, x) => format!("{}({})", FUNCTIONS[*f].0, x.text()),
                Tree::Binary(op, a, b) => {
                    let mine = precedence(*op);
                    let wrap = |t: &Tree, right: bool| match t {
                        Tree::Binary(inner, ..) => {
                            let theirs = precedence(*inner);
                            // `^` groups from the right, the others from
                            // the left.
                            let needs = if *op == '^' {
                                theirs < mine || (theirs == mine && !right)
                            } else {
                                theirs < mine || (theirs == mine && right)
                            };
                            if needs {
                                format!("({})", t.text())
                            } else {
                                t.text()
                            }
                        }
                        _ => t.text(),
                    };
                    format!("{}{op}{}", wrap(a, false), wrap(b, true))
                }
            }
        }
    }

    /// A random tree of at most `depth` levels, drawn from `draw`. Drawn
    /// by hand from a seed proptest gives: proptest's recursive strategies
    /// cost the unit tests' build about 50 s of CPU.
    fn tree(draw: &mut Draw, depth: u32) -> Tree {
        match draw.below(if depth == 0 { 3 } else { 5 }) {
            0 => Tree::Number(draw.below(100_000) as f64 / 1000.0),
            1 => Tree::W,
            2 => Tree::P,
            3 => Tree::Call(draw.below(FUNCTIONS.len()), Box::new(tree(draw, depth - 1))),
            _ => {
                let op = draw.pick(&['+', '-', '*', '/', '^']);
                let a = tree(draw, depth - 1);
                Tree::Binary(op, Box::new(a), Box::new(tree(draw, depth - 1)))
            }
        }
    }

    fn slot(name: &str) -> Option<Slot> {
        match name {
            "W" => Some(Slot::Work),
            "p" => Some(Slot::Processors),
            _ => None,
        }
    }

    proptest! {
        #[test]
        fn the_program_computes_what_the_tree_does(seed in any::<u64>(), w in 1.0..1e6f64, p in 1.0..1e3f64) {
            let t = tree(&mut Draw::new(seed), 5);
            let program = Postfix::compile(&t.text(), slot).unwrap();
            let (got, want) = (program.eval(w, p), t.value(w, p));
            prop_assert!(got.to_bits() == want.to_bits() || (got.is_nan() && want.is_nan()),
                "{}: {got} vs {want}", t.text());
        }
    }

    #[test]
    fn names_are_sorted_and_unknown_ones_refused() {
        let program = Postfix::compile("p*W+W", slot).unwrap();
        assert_eq!(program.names(), ["W", "p"]);
        assert_eq!(program.eval(3.0, 2.0), 9.0);
        assert_eq!(
            Postfix::compile("x+1", slot).unwrap_err(),
            "unknown name `x`"
        );
        assert_eq!(
            Postfix::compile("foo(1)", slot).unwrap_err(),
            "unknown function `foo`"
        );
        assert!(Postfix::compile("(1+2", slot).is_err());
        assert!(Postfix::compile("1+", slot).is_err());
        assert!(Postfix::compile("1)", slot).is_err());
    }
}
