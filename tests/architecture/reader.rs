//! The import reader: each module of a crate's source folder, the modules it imports (from
//! `use` trees and inline `crate::`, `super::` and `self::` paths outside comments and
//! outside a file's closing `#[cfg(test)] mod tests`), the arrows between the children of
//! one module, and the circles among them.

use std::{
    collections::{BTreeMap, BTreeSet},
    fs,
    path::{Path, PathBuf},
};

/// Every file under `dir` (recursively) whose name ends with one of `exts`, skipping
/// build output and installed packages.
pub fn files(dir: &Path, exts: &[&str], out: &mut Vec<PathBuf>) {
    let Ok(entries) = fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        let name = entry.file_name().to_string_lossy().to_string();
        if path.is_dir() {
            if !matches!(name.as_str(), "target" | "node_modules" | "dist" | ".git") {
                files(&path, exts, out);
            }
        } else if exts.iter().any(|e| name.ends_with(e)) {
            out.push(path);
        }
    }
}

pub type ModPath = Vec<String>;

/// The module a file of `src` is: `a/b.rs` and `a/b/mod.rs` are `a::b`, `lib.rs` the root.
pub fn module_of(src: &Path, file: &Path) -> ModPath {
    let rel = file.strip_prefix(src).expect("a file under its crate");
    let mut parts: ModPath = rel
        .with_extension("")
        .components()
        .map(|c| c.as_os_str().to_string_lossy().to_string())
        .collect();
    if matches!(
        parts.last().map(String::as_str),
        Some("mod" | "lib" | "main")
    ) {
        parts.pop();
    }
    parts
}

/// The text without comments and without a closing `#[cfg(test)] mod tests { … }`.
pub fn code_of(text: &str) -> String {
    let text = match text.find("#[cfg(test)]\nmod tests {") {
        Some(i) => &text[..i],
        None => text,
    };
    let mut out = String::with_capacity(text.len());
    for line in text.lines() {
        // A `//` outside a string literal starts a comment.
        let (mut in_str, mut escaped, mut cut) = (false, false, line.len());
        let bytes = line.as_bytes();
        for i in 0..bytes.len() {
            let c = bytes[i];
            if in_str {
                if escaped {
                    escaped = false;
                } else if c == b'\\' {
                    escaped = true;
                } else if c == b'"' {
                    in_str = false;
                }
            } else if c == b'"' {
                in_str = true;
            } else if c == b'/' && bytes.get(i + 1) == Some(&b'/') {
                cut = i;
                break;
            }
        }
        out.push_str(&line[..cut]);
        out.push('\n');
    }
    out
}

pub fn is_ident(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_'
}

/// The paths a `use` tree (whitespace removed, `;` excluded) names, each as segments.
pub fn expand_use(tree: &str, prefix: &[String], out: &mut Vec<ModPath>) {
    let tree = tree.trim_matches(',');
    if tree.is_empty() {
        return;
    }
    if let Some(body) = tree.strip_prefix('{').and_then(|t| t.strip_suffix('}')) {
        let (mut depth, mut start) = (0usize, 0usize);
        for (i, c) in body.char_indices() {
            match c {
                '{' => depth += 1,
                '}' => depth -= 1,
                ',' if depth == 0 => {
                    expand_use(&body[start..i], prefix, out);
                    start = i + 1;
                }
                _ => {}
            }
        }
        expand_use(&body[start..], prefix, out);
        return;
    }
    match tree.find("::") {
        Some(i) if !tree[..i].contains('{') => {
            let mut p = prefix.to_vec();
            p.push(tree[..i].to_string());
            expand_use(&tree[i + 2..], &p, out);
        }
        _ => {
            // An alias (`name as other`) was marked `@` when the tree was read.
            let name = tree.split('@').next().unwrap_or(tree);
            let mut p = prefix.to_vec();
            if name != "self" && name != "*" && name.chars().all(is_ident) {
                p.push(name.to_string());
            }
            out.push(p);
        }
    }
}

/// Every path the code names that starts with `crate`, `super` or `self`.
pub fn paths_of(code: &str) -> Vec<ModPath> {
    let mut out = Vec::new();
    // `use` trees, whole.
    let mut rest = code;
    while let Some(i) = rest.find("use ") {
        let before = rest[..i].chars().last();
        let after = &rest[i + 4..];
        if before.is_some_and(is_ident) {
            rest = after;
            continue;
        }
        let Some(end) = after.find(';') else { break };
        // Whitespace goes, but an alias keeps a mark: `a as b` would read `aasb`.
        let words: Vec<&str> = after[..end].split_whitespace().collect();
        let tree: String = words.join(" ").replace(" as ", "@").replace(' ', "");
        if tree.starts_with("crate::") || tree.starts_with("super::") || tree.starts_with("self::")
        {
            expand_use(&tree, &[], &mut out);
        }
        rest = &after[end..];
    }
    // Inline paths.
    for anchor in ["crate::", "super::", "self::"] {
        let mut from = 0;
        while let Some(i) = code[from..].find(anchor) {
            let at = from + i;
            from = at + anchor.len();
            if code[..at]
                .chars()
                .last()
                .is_some_and(|c| is_ident(c) || c == '$')
            {
                continue;
            }
            let tail: String = code[at..]
                .chars()
                .take_while(|c| is_ident(*c) || *c == ':')
                .collect();
            out.push(
                tail.split("::")
                    .filter(|s| !s.is_empty())
                    .map(str::to_string)
                    .collect(),
            );
        }
    }
    out
}

/// The module `path` (as written in `module`) points into: the longest prefix of its
/// absolute path that is a module of the crate.
pub fn resolve(path: &ModPath, module: &ModPath, modules: &BTreeSet<ModPath>) -> Option<ModPath> {
    let mut abs: ModPath = Vec::new();
    let mut segments = path.iter().peekable();
    match segments.peek().map(|s| s.as_str()) {
        Some("crate") => {
            segments.next();
        }
        Some("super") | Some("self") => {
            abs = module.clone();
            while let Some(s) = segments.peek() {
                match s.as_str() {
                    "super" => {
                        abs.pop();
                    }
                    "self" => {}
                    _ => break,
                }
                segments.next();
            }
        }
        _ => return None,
    }
    abs.extend(segments.cloned());
    (0..=abs.len())
        .rev()
        .map(|n| abs[..n].to_vec())
        .find(|p| modules.contains(p))
}

/// A crate's modules and the modules each imports.
pub struct Graph {
    pub modules: BTreeSet<ModPath>,
    pub edges: BTreeMap<ModPath, BTreeSet<ModPath>>,
}

pub fn graph_of(src: &Path) -> Graph {
    let mut found = Vec::new();
    files(src, &[".rs"], &mut found);
    found.retain(|f| !f.strip_prefix(src).is_ok_and(|r| r.starts_with("bin")));
    let texts: Vec<(ModPath, String)> = found
        .iter()
        .map(|f| {
            (
                module_of(src, f),
                fs::read_to_string(f).expect("a readable source"),
            )
        })
        .collect();
    let modules: BTreeSet<ModPath> = texts.iter().map(|(m, _)| m.clone()).collect();
    let mut edges: BTreeMap<ModPath, BTreeSet<ModPath>> = BTreeMap::new();
    for (module, text) in &texts {
        for path in paths_of(&code_of(text)) {
            if let Some(target) = resolve(&path, module, &modules)
                && &target != module
            {
                edges.entry(module.clone()).or_default().insert(target);
            }
        }
    }
    Graph { modules, edges }
}

/// Each sibling-level arrow: (parent, child importing, child imported), for modules that
/// are not each other's ancestors.
pub fn sibling_arrows(g: &Graph) -> BTreeSet<(ModPath, String, String)> {
    let mut out = BTreeSet::new();
    for (a, targets) in &g.edges {
        for b in targets {
            let k = a.iter().zip(b).take_while(|(x, y)| x == y).count();
            if k < a.len() && k < b.len() {
                out.insert((a[..k].to_vec(), a[k].clone(), b[k].clone()));
            }
        }
    }
    out
}

/// The circles among siblings: (parent, the children of one strongly connected set).
pub fn circles(arrows: &BTreeSet<(ModPath, String, String)>) -> BTreeSet<(String, Vec<String>)> {
    let mut by_parent: BTreeMap<&ModPath, BTreeMap<&str, BTreeSet<&str>>> = BTreeMap::new();
    for (p, a, b) in arrows {
        by_parent
            .entry(p)
            .or_default()
            .entry(a)
            .or_default()
            .insert(b);
    }
    let mut out = BTreeSet::new();
    for (parent, g) in by_parent {
        // Two nodes are in one circle when each reaches the other.
        let reach = |from: &str| {
            let mut seen = BTreeSet::new();
            let mut stack = vec![from];
            while let Some(n) = stack.pop() {
                for &m in g.get(n).into_iter().flatten() {
                    if seen.insert(m) {
                        stack.push(m);
                    }
                }
            }
            seen
        };
        let nodes: BTreeSet<&str> = g.keys().copied().collect();
        let reaches: BTreeMap<&str, BTreeSet<&str>> =
            nodes.iter().map(|&n| (n, reach(n))).collect();
        for &n in &nodes {
            let mut set: Vec<String> = nodes
                .iter()
                .filter(|&&m| reaches[n].contains(m) && reaches[m].contains(n))
                .map(|m| m.to_string())
                .collect();
            if set.len() > 1 {
                set.sort();
                out.insert((parent.join("::"), set));
            }
        }
    }
    out
}

pub fn split(path: &str) -> ModPath {
    path.split("::").map(str::to_string).collect()
}

pub fn starts_with(path: &ModPath, prefix: &ModPath) -> bool {
    path.len() >= prefix.len() && path[..prefix.len()] == prefix[..]
}
