/**
 * The API's answers as the web reads them. The server sends every field of an answer, `null` when
 * it has no value, where its OpenAPI document (utoipa's reading of Rust's `Option`) marks such a
 * field optional; `Answer` of a generated schema type makes every field present, at every depth,
 * so callers test for `null` alone, as before the types were generated. Not for a type with fields
 * the server leaves out (the error body's `fields`, the content document's `language`).
 */
export type Answer<T> = T extends readonly (infer Item)[]
  ? Answer<Item>[]
  : T extends object
    ? { [K in keyof T]-?: Answer<Exclude<T[K], undefined>> }
    : T;
