/**
 * The Ajv the compiled CLI hands @readme/openapi-parser (bin/ensure-built.mjs, `sharedAjv`). The parser
 * makes a new Ajv for every spec and validates it against its OpenAPI schema, which Ajv compiles first:
 * 0.2–0.7 s of the main thread per OpenAPI version, every build, while the render threads wait for
 * the API pages. The compiled CLI carries those schemas compiled when the CLI was (Ajv's standalone
 * code), each with the options and the very schema text it was compiled for. A validation whose class,
 * options and schema are those runs the carried function; any other (a parser that changed its
 * schemas or options) is compiled as before, once per options.
 *
 * The parser uses `validate(schema, data)` and then `errors`, nothing else: that is what this class has.
 */

/** Ajv's options and errors, as far as this class passes them on (Ajv comes with the parser, not as our dependency). */
type Options = Record<string, unknown>;
type ErrorObject = Record<string, unknown>;
/** A validator Ajv compiled: it leaves the errors of its last call on itself. */
type ValidateFunction = ((data: unknown) => boolean) & { errors?: ErrorObject[] | null };

/** A schema's validator compiled ahead, with what it was compiled for. */
export interface AheadValidator {
  /** `JSON.stringify` of the options it was compiled with (without Ajv's `code` option). */
  options: string;
  /** `JSON.stringify` of the schema, as the parser passes it. */
  schema: string;
  validate: ValidateFunction;
}

/** What the parser needs of an Ajv class. */
interface AjvLike {
  validate(schema: object, data: unknown): boolean | Promise<unknown>;
  errors?: ErrorObject[] | null;
}

/**
 * A class standing in for `Ajv` (one of Ajv's classes, given as `Ajv`): validations the carried
 * validators cover run them; others go to one real instance per options, which compiles each schema
 * once. With `compileMissing` false such a validation throws instead (the test that checks every
 * OpenAPI version the parser knows is carried).
 */
export function ajvAhead(Ajv: new (options?: Options) => AjvLike, ahead: AheadValidator[], compileMissing = true): new (options?: Options) => AjvLike {
  const made = new Map<string, AjvLike>();
  const carried = new Map(ahead.map((validator) => [`${validator.options}\n${validator.schema}`, validator.validate]));
  return class AheadAjv implements AjvLike {
    errors: ErrorObject[] | null = null;
    readonly #options: Options | undefined;
    readonly #key: string;
    constructor(options?: Options) {
      this.#options = options;
      this.#key = JSON.stringify(options ?? {});
    }
    validate(schema: object, data: unknown): boolean {
      const validate = carried.get(`${this.#key}\n${JSON.stringify(schema)}`);
      if (validate) {
        const valid = validate(data);
        this.errors = validate.errors ?? null;
        return valid;
      }
      if (!compileMissing) throw new Error('no validator compiled ahead for this schema and these options');
      let ajv = made.get(this.#key);
      if (!ajv) made.set(this.#key, (ajv = new Ajv(this.#options)));
      const valid = ajv.validate(schema, data) as boolean;
      this.errors = ajv.errors ?? null;
      return valid;
    }
  };
}
