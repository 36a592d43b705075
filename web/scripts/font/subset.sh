#!/usr/bin/env bash
# Makes web/src/fonts/inter-latin.woff2, the page's one web font, from Inter 4.1's variable font
# (the npm package inter-ui, fetched by `npm pack` and checked against its SHA-256), and copies
# its licence beside it. The subset is committed, so the build needs neither this script nor the
# network; run it again (`make font`) only to change the subset. What it keeps:
# - the characters of Basic Latin, Latin-1 and the punctuation the page's built-in texts use
#   (UNICODES below; the @font-face in web/src/index.css names the same ranges in its
#   unicode-range, keep the two alike): any other script keeps the visitor's system faces;
# - the weight axis from 400 to 800, the weights the stylesheet uses (400 is Inter's default
#   master, so the deltas toward its lighter weights go); the optical size pinned at 14 (text);
# - kerning, ligatures, contextual alternates, composition, localised forms, tabular figures and
#   case-sensitive forms; no hinting (browsers hint variable fonts themselves or not at all).
set -euo pipefail
# fontTools stamps the time of making into the font; a fixed one makes the same bytes each run.
export SOURCE_DATE_EPOCH=1735689600
root=$(cd "$(dirname "$0")/../../.." && pwd)
venv=$root/target/font-venv
out=$root/web/src/fonts
VERSION=4.1.1
SHA256=693b77d4f32ee9b8bfc995589b5fad5e99adf2832738661f5402f9978429a8e3
UNICODES=U+0020-007E,U+00A0-00FF,U+2013-2014,U+2018-201A,U+201C-201E,U+2022,U+2026,U+2039-203A,U+20AC,U+2122,U+2212,U+2713

python3 -c 'import ensurepip, venv' 2>/dev/null || { echo 'needs python3-venv (make python-venv)' >&2; exit 1; }
[ -x "$venv/bin/pyftsubset" ] || { python3 -m venv "$venv" && "$venv/bin/pip" install -q -r "$root/web/scripts/font/requirements.txt"; }

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
(cd "$work" && npm pack --silent "inter-ui@$VERSION" >/dev/null && tar xzf "inter-ui-$VERSION.tgz")
source=$work/package/variable/InterVariable.woff2
echo "$SHA256  $source" | sha256sum --check --quiet

"$venv/bin/fonttools" varLib.instancer "$source" opsz=14 wght=400:800 --quiet --output "$work/instance.ttf"
"$venv/bin/pyftsubset" "$work/instance.ttf" \
  --unicodes="$UNICODES" \
  --layout-features='kern,liga,calt,ccmp,locl,tnum,case' \
  --no-hinting --desubroutinize --name-IDs='0,1,2,3,4,5,6,13,14' \
  --flavor=woff2 --output-file="$out/inter-latin.woff2"
cp "$work/package/LICENSE.txt" "$out/LICENSE.txt"
echo "wrote $out/inter-latin.woff2: $(stat -c %s "$out/inter-latin.woff2") bytes"
