//! Vocabulary the generator combines into app names and keyword texts.

/// App Store categories with the search phrases people use for them.
pub const CATEGORIES: &[(&str, &[&str])] = &[
    (
        "Photo & Video",
        &[
            "photo editor",
            "video editor",
            "collage maker",
            "filters",
            "camera",
            "selfie",
        ],
    ),
    (
        "Health & Fitness",
        &[
            "workout",
            "fitness",
            "step counter",
            "running",
            "yoga",
            "calorie counter",
        ],
    ),
    (
        "Finance",
        &[
            "budget",
            "expense tracker",
            "money manager",
            "invoice",
            "tax",
            "savings",
        ],
    ),
    (
        "Food & Drink",
        &[
            "recipes",
            "meal planner",
            "grocery list",
            "cooking",
            "diet",
            "baking",
        ],
    ),
    (
        "Education",
        &[
            "language learning",
            "spanish",
            "flashcards",
            "math",
            "vocabulary",
            "typing",
        ],
    ),
    (
        "Productivity",
        &[
            "notes",
            "to do list",
            "calendar",
            "scanner",
            "pdf editor",
            "habit tracker",
        ],
    ),
    (
        "Weather",
        &[
            "weather",
            "radar",
            "forecast",
            "storm tracker",
            "rain alerts",
            "temperature",
        ],
    ),
    (
        "Music",
        &[
            "music player",
            "guitar tuner",
            "metronome",
            "piano",
            "karaoke",
            "podcast",
        ],
    ),
];

/// Words put before a phrase.
pub const PREFIXES: &[&str] = &[
    "", "free", "best", "easy", "simple", "pro", "daily", "smart", "quick", "top", "offline",
    "private", "cute", "ai", "family", "kids", "mini", "fast", "new", "live", "cheap", "premium",
    "minimal", "portable", "secure", "classic", "modern", "personal", "shared", "instant",
];

/// Words put after a phrase.
pub const SUFFIXES: &[&str] = &[
    "",
    "app",
    "for iphone",
    "for ipad",
    "2026",
    "pro",
    "free",
    "online",
    "offline",
    "widget",
    "tracker",
    "planner",
    "maker",
    "tool",
    "lite",
    "plus",
    "hd",
    "studio",
    "journal",
    "coach",
    "guide",
    "assistant",
    "organizer",
    "helper",
    "timer",
    "log",
    "diary",
    "club",
    "box",
    "kit",
    "hub",
    "center",
    "lab",
    "book",
    "pad",
    "pal",
    "buddy",
    "master",
    "genius",
    "go",
    "now",
    "daily",
    "home",
    "life",
    "world",
    "zone",
    "space",
    "flow",
    "notes",
    "list",
    "pro max",
    "for beginners",
    "for women",
    "for men",
    "for students",
    "for teams",
    "for work",
    "for travel",
    "at home",
    "without ads",
];

/// Syllables for app and developer names.
pub const NAME_PARTS: &[&str] = &[
    "Lumi", "Snap", "Fit", "Penny", "Chef", "Lingo", "Task", "Sky", "Tune", "Nova", "Pix", "Zen",
    "Coin", "Bite", "Word", "Note", "Cloud", "Beat", "Pulse", "Frame", "Leaf", "Spark", "Orbit",
    "Echo",
];

/// Second halves of app names.
pub const NAME_TAILS: &[&str] = &[
    "ly", "io", "Pro", "Hub", "Go", "Lab", "Kit", "Box", "Mate", "Base", "Wise", "Flow",
];

/// Storefronts with their share of search traffic relative to the US.
pub const COUNTRIES: &[(&str, f64)] = &[
    ("US", 1.0),
    ("GB", 0.25),
    ("DE", 0.22),
    ("JP", 0.3),
    ("FR", 0.18),
    ("CA", 0.12),
    ("AU", 0.1),
    ("MX", 0.08),
];

/// The traffic weight of a storefront (unknown ones count a little).
pub fn country_weight(code: &str) -> f64 {
    COUNTRIES
        .iter()
        .find(|(c, _)| *c == code)
        .map_or(0.05, |(_, w)| *w)
}

/// The `i`-th distinct keyword text built from a category's phrases; distinct for every
/// `i` below `phrases.len() * PREFIXES.len() * SUFFIXES.len()`.
pub fn keyword_text(phrases: &[&str], i: usize) -> String {
    let phrase = phrases[i % phrases.len()];
    let rest = i / phrases.len();
    let prefix = PREFIXES[rest % PREFIXES.len()];
    let suffix = SUFFIXES[(rest / PREFIXES.len()) % SUFFIXES.len()];
    [prefix, phrase, suffix]
        .iter()
        .filter(|w| !w.is_empty())
        .copied()
        .collect::<Vec<_>>()
        .join(" ")
}
