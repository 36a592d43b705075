/**
 * The default content document: today's placeholder content as data, the one file that both
 * the server (embedded, served as version 0 until something is published) and this site read.
 * Its shape is `ContentDocument`, generated from the server's Rust types, with the JSON Schema
 * beside it (`document.schema.json`). Plain data: Node scripts import it too.
 */
import json from './default-document.json';
import type { ContentDocument } from './document.generated';

export type * from './document.generated';

export const defaultDocument = json as ContentDocument;
