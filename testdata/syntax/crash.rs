// A Rust file for a parse-only oracle: it "fails" while an impl block
// has a method with a match on an enum and a closure is passed to map.
use std::collections::HashMap;

#[derive(Debug, Clone, Copy)]
enum Kind {
    Word,
    Number,
    Other,
}

struct Counter {
    counts: HashMap<String, u32>,
    kinds: Vec<Kind>,
}

impl Counter {
    fn new() -> Self {
        Counter { counts: HashMap::new(), kinds: Vec::new() }
    }

    fn add(&mut self, w: &str) -> u32 {
        let kind = if w.chars().all(|c| c.is_ascii_digit()) {
            Kind::Number
        } else if w.chars().all(char::is_alphabetic) {
            Kind::Word
        } else {
            Kind::Other
        };
        self.kinds.push(kind);
        let c = self.counts.entry(w.to_string()).or_insert(0);
        *c += 1;
        *c
    }

    fn describe(&self, k: Kind) -> &'static str {
        match k {
            Kind::Word => "word",
            Kind::Number => "number",
            Kind::Other => "other",
        }
    }
}

fn main() {
    let mut c = Counter::new();
    let words: Vec<String> = "a b 1 a ?".split(' ').map(|s| s.to_string()).collect();
    for w in &words {
        c.add(w);
    }
    let names: Vec<&str> = c.kinds.iter().map(|k| c.describe(*k)).collect();
    println!("{:?} {:?}", c.counts.len(), names);
}
