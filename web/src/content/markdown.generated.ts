// Generated from content/src/markdown.rs: do not edit. Regenerate with
// `make generate` (UPDATE_CONTENT_SCHEMA=1 cargo test --locked --workspace --lib).

export type Block = { "type": "paragraph", children: Array<Inline>, } | { "type": "list", ordered: boolean, start?: number, tight: boolean, items: Array<Array<Block>>, } | { "type": "code", lang?: string, text: string, };

export type Inline = { "type": "emphasis", children: Array<Inline>, } | { "type": "strong", children: Array<Inline>, } | { "type": "code", text: string, } | { "type": "link", href: string, children: Array<Inline>, } | { "type": "image", src: string, alt: string, width?: number, height?: number, } | { "type": "break" } | string;
