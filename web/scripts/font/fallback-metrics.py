"""The fallback face's metrics for web/src/index.css (see README.md beside this file).

Usage: target/font-venv/bin/python web/scripts/font/fallback-metrics.py REGULAR.ttf BOLD.ttf [...]
with the fallback's regular and bold files in pairs, e.g. Liberation Sans (metric-compatible with
Arial; Debian's fonts-liberation2) and Roboto (fonts-roboto-unhinted). Prints size-adjust,
ascent-override and descent-override for each: Inter's average advance width over the page's own
texts (the default document and the English string table, each character weighted by how often
it occurs) divided by the fallback's, at 400 for the regular and 700 for the bold.
"""
import collections
import json
import sys
from pathlib import Path

from fontTools.ttLib import TTFont
from fontTools.varLib import instancer

WEB = Path(__file__).resolve().parents[2]
INTER = WEB / 'src/fonts/inter-latin.woff2'


def texts_of(value, out):
    if isinstance(value, str):
        out.append(value)
    elif isinstance(value, dict):
        for item in value.values():
            texts_of(item, out)
    elif isinstance(value, list):
        for item in value:
            texts_of(item, out)
    return out


texts = []
for source in ('src/content/default-document.json', 'src/i18n/en.json'):
    texts_of(json.loads((WEB / source).read_text(encoding='utf-8')), texts)
frequency = collections.Counter(''.join(texts))


def average_width(font):
    cmap, metrics, units = font.getBestCmap(), font['hmtx'], font['head'].unitsPerEm
    total = count = 0
    for char, times in frequency.items():
        glyph = cmap.get(ord(char))
        if glyph is not None:
            total += metrics[glyph][0] / units * times
            count += times
    return total / count


inter = TTFont(INTER)
ascent = inter['hhea'].ascent / inter['head'].unitsPerEm
descent = -inter['hhea'].descent / inter['head'].unitsPerEm
inter_width = {weight: average_width(instancer.instantiateVariableFont(TTFont(INTER), {'wght': weight})) for weight in (400, 700)}

files = sys.argv[1:]
if not files or len(files) % 2:
    sys.exit(__doc__)
for regular, bold in zip(files[::2], files[1::2]):
    for path, weight in ((regular, 400), (bold, 700)):
        factor = inter_width[weight] / average_width(TTFont(path))
        print(f'{Path(path).name}: size-adjust {factor * 100:.2f}%; ascent-override {ascent / factor * 100:.1f}%; descent-override {descent / factor * 100:.1f}%')
