// Pet names as golang-petname builds them: `length` words — adverbs, then an adjective, then a
// name ("quickly-happy-otter"). The word lists are shorter than upstream's.

import { cryptoIntn } from "./rand.js";

const ADVERBS = [
  "abnormally", "absolutely", "accurately", "actively", "adequately", "admittedly", "adversely", "allegedly",
  "amazingly", "annually", "apparently", "arguably", "awfully", "badly", "barely", "basically", "blatantly",
  "blindly", "briefly", "brightly", "broadly", "carefully", "centrally", "certainly", "cheaply", "cleanly",
  "clearly", "closely", "commonly", "completely", "constantly", "correctly", "curiously", "currently",
  "daily", "deadly", "deeply", "definitely", "directly", "easily", "entirely", "evenly", "evidently",
  "exactly", "explicitly", "externally", "fairly", "finally", "firmly", "freely", "frankly", "fully",
  "generally", "gently", "genuinely", "gladly", "globally", "gradually", "greatly", "happily", "hardly",
  "heartily", "highly", "honestly", "hopelessly", "horribly", "humbly", "ideally", "immensely", "infinitely",
  "initially", "instantly", "intensely", "internally", "jointly", "jolly", "kindly", "largely", "lately",
  "legally", "lightly", "likely", "literally", "lively", "locally", "logically", "loudly", "lovely",
  "luckily", "mainly", "manually", "markedly", "merely", "mildly", "mistakenly", "mostly", "namely",
  "naturally", "nearly", "neatly", "needlessly", "nicely", "notably", "obviously", "openly", "overly",
  "partially", "particularly", "perfectly", "personally", "physically", "plainly", "pleasantly", "poorly",
  "positively", "possibly", "precisely", "preferably", "presently", "presumably", "previously", "primarily",
  "privately", "probably", "promptly", "properly", "publicly", "purely", "quickly", "quietly", "radically",
  "randomly", "rapidly", "rarely", "rationally", "readily", "really", "reasonably", "recently", "regularly",
  "reliably", "remarkably", "remotely", "repeatedly", "rightly", "roughly", "routinely", "sadly", "safely",
  "scarcely", "secondly", "secretly", "seemingly", "sensibly", "separately", "seriously", "severely",
  "sharply", "shortly", "similarly", "simply", "sincerely", "singularly", "slightly", "slowly", "smoothly",
  "socially", "solely", "specially", "steadily", "strangely", "strictly", "strongly", "subtly", "suddenly",
  "suitably", "supposedly", "surely", "terminally", "terribly", "thankfully", "thoroughly", "tightly",
  "totally", "trivially", "truly", "typically", "ultimately", "unduly", "uniformly", "uniquely", "unlikely",
  "urgently", "usefully", "usually", "utterly", "vaguely", "vastly", "verbally", "vertically", "vigorously",
  "violently", "virtually", "visually", "weekly", "wholly", "widely", "wildly", "willingly", "wrongly", "yearly",
];

const ADJECTIVES = [
  "able", "above", "absolute", "accepted", "accurate", "ace", "active", "actual", "adapted", "adapting",
  "adequate", "adjusted", "advanced", "alert", "alive", "allowed", "allowing", "amazed", "amazing", "ample",
  "amused", "amusing", "apparent", "apt", "arriving", "artistic", "assured", "assuring", "awaited", "awake",
  "aware", "balanced", "becoming", "beloved", "better", "big", "blessed", "bold", "boss", "brave", "brief",
  "bright", "bursting", "busy", "calm", "capable", "capital", "careful", "caring", "casual", "causal",
  "central", "certain", "champion", "charmed", "charming", "cheerful", "chief", "choice", "civil", "classic",
  "clean", "clear", "clever", "climbing", "close", "closing", "coherent", "comic", "communal", "complete",
  "composed", "concise", "concrete", "content", "cool", "correct", "cosmic", "crack", "creative", "credible",
  "crisp", "crucial", "cuddly", "cunning", "curious", "current", "cute", "daring", "darling", "dashing",
  "dear", "decent", "deciding", "deep", "definite", "delicate", "desired", "destined", "devoted", "direct",
  "discrete", "distinct", "diverse", "divine", "dominant", "driven", "driving", "dynamic", "eager", "easy",
  "electric", "elegant", "emerging", "eminent", "enabled", "enabling", "endless", "engaged", "engaging",
  "enhanced", "enjoyed", "enormous", "enough", "epic", "equal", "equipped", "eternal", "ethical", "evident",
  "evolved", "evolving", "exact", "excited", "exciting", "exotic", "expert", "factual", "fair", "faithful",
  "famous", "fancy", "fast", "feasible", "fine", "finer", "firm", "first", "fit", "fitting", "fleet",
  "flexible", "flowing", "fluent", "flying", "fond", "frank", "free", "fresh", "full", "fun", "funky",
  "funny", "game", "generous", "gentle", "genuine", "giving", "glad", "glorious", "glowing", "golden", "good",
  "gorgeous", "grand", "grateful", "great", "growing", "grown", "guided", "guiding", "handy", "happy",
  "hardy", "harmless", "healthy", "helped", "helpful", "helping", "heroic", "hip", "holy", "honest",
  "hopeful", "hot", "huge", "humane", "humble", "humorous", "ideal", "immense", "immune", "improved",
  "in", "included", "infinite", "informed", "innocent", "inspired", "integral", "intense", "intent",
  "internal", "intimate", "inviting", "joint", "just", "keen", "key", "kind", "knowing", "known", "large",
  "lasting", "leading", "learning", "legal", "legible", "lenient", "liberal", "light", "liked", "literate",
  "live", "living", "logical", "loved", "loving", "loyal", "lucky", "magical", "magnetic", "main", "major",
  "many", "massive", "master", "mature", "maximum", "measured", "meet", "merry", "mighty", "mint", "model",
  "modern", "modest", "moral", "more", "moved", "moving", "musical", "mutual", "national", "native",
  "natural", "nearby", "neat", "needed", "neutral", "new", "next", "nice", "noble", "normal", "notable",
  "noted", "novel", "obliging", "on", "one", "open", "optimal", "optimum", "organic", "oriented", "outgoing",
  "patient", "peaceful", "perfect", "pet", "picked", "pleasant", "pleased", "pleasing", "poetic", "polished",
  "polite", "popular", "positive", "possible", "powerful", "precious", "precise", "premium", "prepared",
  "present", "pretty", "primary", "prime", "pro", "probable", "profound", "promoted", "prompt", "proper",
  "proud", "proven", "pumped", "pure", "quality", "quick", "quiet", "rapid", "rare", "rational", "ready",
  "real", "refined", "regular", "related", "relative", "relaxed", "relaxing", "relevant", "relieved",
  "renewed", "renewing", "resolved", "rested", "rich", "right", "robust", "romantic", "ruling", "sacred",
  "safe", "saved", "saving", "secure", "select", "selected", "sensible", "set", "settled", "settling",
  "sharing", "sharp", "shining", "simple", "sincere", "singular", "skilled", "smart", "smashing", "smiling",
  "smooth", "social", "solid", "sought", "sound", "special", "splendid", "square", "stable", "star",
  "steady", "sterling", "still", "stirred", "stirring", "striking", "strong", "stunning", "subtle",
  "suitable", "suited", "summary", "sunny", "super", "superb", "supreme", "sure", "sweeping", "sweet",
  "talented", "teaching", "tender", "thankful", "thorough", "tidy", "tight", "together", "tolerant", "top",
  "topical", "tops", "touched", "touching", "tough", "true", "trusted", "trusting", "trusty", "ultimate",
  "unbiased", "uncommon", "unified", "unique", "united", "up", "upright", "upward", "usable", "useful",
  "valid", "valued", "vast", "verified", "viable", "vital", "vocal", "wanted", "warm", "wealthy", "welcome",
  "welcomed", "well", "whole", "willing", "winning", "wired", "wise", "witty", "wondrous", "workable",
  "working", "worthy",
];

const NAMES = [
  "ox", "ant", "ape", "asp", "bat", "bee", "boa", "bug", "cat", "cod", "cow", "cub", "doe", "dog", "eel",
  "eft", "elf", "elk", "emu", "ewe", "fly", "fox", "gar", "gnu", "hen", "hog", "imp", "jay", "kid", "kit",
  "koi", "lab", "man", "owl", "pig", "pug", "pup", "ram", "rat", "ray", "yak", "bass", "bear", "bird",
  "boar", "buck", "bull", "calf", "chow", "clam", "colt", "crab", "crow", "dane", "deer", "dodo", "dory",
  "dove", "drum", "duck", "fawn", "fish", "flea", "foal", "fowl", "frog", "gnat", "goat", "grub", "gull",
  "hare", "hawk", "ibex", "joey", "kite", "kiwi", "lamb", "lark", "lion", "loon", "lynx", "mako", "mink",
  "mite", "mole", "moth", "mule", "mutt", "newt", "orca", "oryx", "pika", "pony", "puma", "seal", "shad",
  "slug", "sole", "stag", "stud", "swan", "tahr", "teal", "tick", "toad", "tuna", "wasp", "wolf", "worm",
  "wren", "yeti", "adder", "akita", "alien", "aphid", "bison", "boxer", "bream", "bunny", "burro", "camel",
  "chimp", "civet", "cobra", "coral", "corgi", "crane", "dingo", "drake", "eagle", "egret", "filly",
  "finch", "gator", "gecko", "ghost", "ghoul", "goose", "guppy", "heron", "hippo", "horse", "hound",
  "husky", "hyena", "koala", "krill", "leech", "lemur", "liger", "llama", "louse", "macaw", "midge",
  "molly", "moose", "moray", "mouse", "panda", "perch", "prawn", "quail", "racer", "raven", "rhino",
  "robin", "satyr", "shark", "sheep", "shrew", "skink", "skunk", "sloth", "snail", "snake", "snipe",
  "squid", "stork", "swift", "tapir", "tetra", "tiger", "troll", "trout", "viper", "wahoo", "whale",
  "zebra", "alpaca", "amoeba", "baboon", "badger", "beagle", "bedbug", "beetle", "bengal", "bobcat",
  "caiman", "cattle", "cicada", "collie", "condor", "cougar", "coyote", "dassie", "donkey", "dragon",
  "earwig", "falcon", "feline", "ferret", "gannet", "gibbon", "glider", "goblin", "gopher", "grouse",
  "guinea", "hermit", "hornet", "iguana", "impala", "insect", "jackal", "jaguar", "jennet", "kitten",
  "kodiak", "lizard", "locust", "maggot", "magpie", "mammal", "mantis", "marlin", "marmot", "marten",
  "martin", "mayfly", "minnow", "monkey", "mullet", "muskox", "ocelot", "oriole", "osprey", "oyster",
  "parrot", "pigeon", "piglet", "poodle", "possum", "python", "quagga", "rabbit", "raptor", "rodent",
  "roughy", "salmon", "sawfly", "serval", "shiner", "shrimp", "spider", "sponge", "tarpon", "thrush",
  "tomcat", "toucan", "turkey", "turtle", "urchin", "vervet", "walrus", "weasel", "weevil", "wombat",
];

function pick(words: readonly string[]): string {
  return words[cryptoIntn(words.length)] as string;
}

export function petName(words: number, separator: string): string {
  if (words <= 0) return "";
  if (words === 1) return pick(NAMES);
  const out: string[] = [];
  for (let i = 0; i < words - 2; i++) out.push(pick(ADVERBS));
  out.push(pick(ADJECTIVES), pick(NAMES));
  return out.join(separator);
}
