// Precompresses the built site (Brotli and gzip) so the server never compresses per request.
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, extname } from 'node:path';
import { brotliCompressSync, gzipSync, constants } from 'node:zlib';

const TEXT = new Set(['.html', '.js', '.mjs', '.css', '.svg', '.json', '.txt', '.xml', '.webmanifest', '.map']);
const dist = new URL('../dist/', import.meta.url).pathname;

function* walk(dir) {
  for (const name of readdirSync(dir)) {
    // The render bundle and the page's templates: read by the server, never served.
    if (name === '.render') continue;
    const path = join(dir, name);
    if (statSync(path).isDirectory()) yield* walk(path);
    else yield path;
  }
}

let count = 0;
for (const path of walk(dist)) {
  if (!TEXT.has(extname(path))) continue;
  const body = readFileSync(path);
  const br = brotliCompressSync(body, {
    params: {
      [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
      [constants.BROTLI_PARAM_SIZE_HINT]: body.length,
    },
  });
  const gz = gzipSync(body, { level: 9 });
  // Only keep a variant that is actually smaller than the original.
  if (br.length < body.length) writeFileSync(`${path}.br`, br);
  if (gz.length < body.length) writeFileSync(`${path}.gz`, gz);
  count += 1;
}
console.log(`compressed ${count} text assets in dist/`);
