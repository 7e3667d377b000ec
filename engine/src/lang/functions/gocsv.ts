// A CSV reader with the rules and errors of Go's encoding/csv Reader as cty's csvdecode uses it
// (comma separator, no comment character, strict quotes, empty lines skipped, \r\n read as \n).

export class CSVParseError extends Error {
  constructor(
    readonly line: number,
    readonly err: string,
  ) {
    super(`CSV parse error on line ${line}: ${err}`);
  }
}

export const ERR_FIELD_COUNT = "wrong number of fields";
const ERR_QUOTE = 'extraneous or missing " in quoted-field';
const ERR_BARE_QUOTE = 'bare " in non-quoted-field';

export class CSVReader {
  private pos = 0;
  private line = 0;
  /** Fields every record must have; 0 means "as many as the first record". */
  fieldsPerRecord = 0;

  constructor(private readonly src: string) {}

  /** Reads one physical line including its newline, with a trailing \r\n normalised to \n. */
  private readLine(): string | undefined {
    if (this.pos >= this.src.length) return undefined;
    const nl = this.src.indexOf("\n", this.pos);
    let line = nl < 0 ? this.src.slice(this.pos) : this.src.slice(this.pos, nl + 1);
    this.pos = nl < 0 ? this.src.length : nl + 1;
    this.line++;
    if (line.endsWith("\r\n")) line = line.slice(0, -2) + "\n";
    else if (nl < 0 && line.endsWith("\r")) line = line.slice(0, -1);
    return line;
  }

  /** The next record, or undefined at the end of input. Throws CSVParseError. */
  read(): string[] | undefined {
    let line: string | undefined;
    // Empty lines are skipped.
    for (;;) {
      line = this.readLine();
      if (line === undefined) return undefined;
      if (line !== "\n") break;
    }
    const recLine = this.line;
    const fields: string[] = [];
    let rest = line;
    for (;;) {
      if (!rest.startsWith('"')) {
        // Unquoted field.
        let i = rest.indexOf(",");
        let field = i >= 0 ? rest.slice(0, i) : rest;
        if (i < 0 && field.endsWith("\n")) field = field.slice(0, -1);
        if (field.includes('"')) throw new CSVParseError(this.line, ERR_BARE_QUOTE);
        fields.push(field);
        if (i >= 0) {
          rest = rest.slice(i + 1);
          continue;
        }
        break;
      }
      // Quoted field, which may span lines.
      let field = "";
      rest = rest.slice(1);
      for (;;) {
        const q = rest.indexOf('"');
        if (q >= 0) {
          field += rest.slice(0, q);
          rest = rest.slice(q + 1);
          if (rest.startsWith('"')) {
            field += '"';
            rest = rest.slice(1);
          } else if (rest.startsWith(",")) {
            rest = rest.slice(1);
            fields.push(field);
            break;
          } else if (rest === "" || rest === "\n") {
            fields.push(field);
            rest = "";
            return this.finish(fields, recLine);
          } else {
            throw new CSVParseError(this.line, ERR_QUOTE);
          }
        } else if (rest.length > 0) {
          field += rest;
          const next = this.readLine();
          if (next === undefined) throw new CSVParseError(this.line, ERR_QUOTE);
          rest = next;
        } else {
          throw new CSVParseError(this.line, ERR_QUOTE);
        }
      }
      if (rest === "" || rest === "\n") {
        fields.push("");
        break;
      }
    }
    return this.finish(fields, recLine);
  }

  private finish(fields: string[], recLine: number): string[] {
    if (this.fieldsPerRecord > 0 && fields.length !== this.fieldsPerRecord) throw new CSVParseError(recLine, ERR_FIELD_COUNT);
    if (this.fieldsPerRecord === 0) this.fieldsPerRecord = fields.length;
    return fields;
  }
}
