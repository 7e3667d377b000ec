// Text helpers of OpenTofu's command/format: action symbols, colour codes (mitchellh/colorstring),
// word wrapping (mitchellh/go-wordwrap) and the horizontal rule.
import type { Action } from "../action.js";

const COLORS: Record<string, string> = {
  default: "39",
  reset: "0",
  bold: "1",
  dim: "2",
  underline: "4",
  black: "30",
  red: "31",
  green: "32",
  yellow: "33",
  blue: "34",
  magenta: "35",
  cyan: "36",
  light_gray: "37",
  dark_gray: "90",
  light_red: "91",
  light_green: "92",
  light_yellow: "93",
};

/** colorstring.Colorize: `[red]` codes become escapes, or vanish when colour is disabled. */
export interface Colorize {
  color(s: string): string;
}

export function newColorize(enabled: boolean): Colorize {
  return {
    color(s: string): string {
      let used = false;
      const out = s.replace(/\[([a-z_]+)\]/g, (all, name: string) => {
        const code = COLORS[name];
        if (code === undefined) return all;
        used = true;
        return enabled ? `\x1b[${code}m` : "";
      });
      return enabled && used ? `${out}\x1b[0m` : out;
    },
  };
}

/** format.DiffActionSymbol, before colouring. */
export function diffActionSymbol(a: Action): string {
  switch (a) {
    case "DeleteThenCreate":
      return "[red]-[reset]/[green]+[reset]";
    case "CreateThenDelete":
      return "[green]+[reset]/[red]-[reset]";
    case "Create":
      return "  [green]+[reset]";
    case "Delete":
      return "  [red]-[reset]";
    case "Read":
      return " [cyan]<=[reset]";
    case "Update":
      return "  [yellow]~[reset]";
    case "NoOp":
      return "   ";
    case "Forget":
      return "  [red].[reset]";
    case "ForgetThenCreate":
      return "[red].[reset]/[green]+[reset]";
  }
}

const NBSP = 0xa0;

function isSpace(c: string): boolean {
  return /\s/u.test(c) && c.codePointAt(0) !== NBSP;
}

/** go-wordwrap's WrapString: breaks at spaces so lines fit `lim` runes; long words stay whole. */
export function wrapString(s: string, lim: number): string {
  let buf = "";
  let current = 0;
  let word = "";
  let wordLen = 0;
  let space = "";
  let spaceLen = 0;
  for (const ch of s) {
    if (ch === "\n") {
      if (wordLen === 0) {
        if (current + spaceLen > lim) current = 0;
        else {
          current += spaceLen;
          buf += space;
        }
      } else {
        current += spaceLen + wordLen;
        buf += space + word;
        word = "";
        wordLen = 0;
      }
      space = "";
      spaceLen = 0;
      buf += ch;
      current = 0;
    } else if (isSpace(ch)) {
      if (spaceLen === 0 || wordLen > 0) {
        current += spaceLen + wordLen;
        buf += space + word;
        space = "";
        spaceLen = 0;
        word = "";
        wordLen = 0;
      }
      space += ch;
      spaceLen++;
    } else {
      word += ch;
      wordLen++;
      if (current + spaceLen + wordLen > lim && wordLen < lim) {
        buf += "\n";
        current = 0;
        space = "";
        spaceLen = 0;
      }
    }
  }
  if (wordLen === 0) {
    if (current + spaceLen <= lim) buf += space;
  } else {
    buf += space + word;
  }
  return buf;
}

/** format.WordWrap: wraps each line at width-1, leaving lines that start with a space alone. */
export function wordWrap(str: string, width: number): string {
  if (width <= 1) return str;
  return str
    .split("\n")
    .map((line) => (line.startsWith(" ") ? line : wrapString(line, width - 1)))
    .join("\n");
}

/** format.HorizontalRule: a newline and width-1 box-drawing dashes, dimmed. */
export function horizontalRule(c: Colorize, width: number): string {
  if (width <= 1) return "\n";
  return c.color(`[dark_gray]\n${"─".repeat(width - 1)}`);
}
