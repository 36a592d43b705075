/**
 * The default content document: today's placeholder content as data, embedded by the server
 * (served as version 0 until something is published). The page's modules beside it say the same
 * (checked by page-content.test.ts) until the server renders `/` from the document.
 * Its shape is `ContentDocument`, generated from the server's Rust types, with the JSON Schema
 * beside it (`document.schema.json`). Plain data: Node scripts import it too.
 */
import json from './default-document.json';
import type { ContentDocument } from './document.generated';

export type * from './document.generated';

export const defaultDocument = json as ContentDocument;
