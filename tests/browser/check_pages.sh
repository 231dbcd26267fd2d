#!/bin/bash
# Browser test of the workbook: renders every lab's sheet and the index from the labs'
# recordings, then opens every HTML page in headless Chromium at 1280 px and at 390 px (a
# phone). Fails on a broken link, a missing image or stylesheet, a picture without a text
# alternative, a page wider than the window, a table that hides its Verdict column at 1280 px,
# a sheet longer than its budget of screens, or a console error; saves a screenshot of each
# page at each width.
# Usage: check_pages.sh LABBOOK OUT_DIR [--sabotage]   (screenshots: OUT_DIR/screenshots/*.png)
# --sabotage breaks the rendered pages first (a figure removed, a link to nowhere, a script
# error, an image without alt text, a picture without a title, an element wider than a phone, a
# table whose Verdict column is out of view, a sheet too long) and passes only if each is caught.
set -uo pipefail
labbook=$1; out=$2; sabotage=${3:-}
here=$(cd "$(dirname "$0")" && pwd)
browser=$(command -v chromium || command -v chromium-browser || true)
if [ -z "$browser" ]; then echo "FAIL: no chromium (tools/install-deps installs it)"; exit 1; fi
rm -rf "$out"; mkdir -p "$out/screenshots"
"$labbook" workbook --recorded --out "$out/pages" > "$out/workbook.log" 2>&1 || { cat "$out/workbook.log"; echo "FAIL: labbook workbook"; exit 1; }
cp "$here/page_check.html" "$out/pages/"
if [ "$sabotage" = --sabotage ]; then
  rm "$(ls "$out"/pages/*.svg | head -1)"
  sed -i 's|<title[^>]*>[^<]*</title>||g' "$(ls "$out"/pages/*.svg | sed -n 2p)"
  sed -i 's|</body>|<div style="height:8000px">long</div></body>|' "$out/pages/lab4.html"
  sed -i 's|</body>|<a href="no-such-lab.html">gone</a><script>console.error("sabotage")</script><img src="labbook.css"><div style="width:900px">wide</div><table><tr><th>Experiment</th><th>Verdict</th></tr><tr><td><div style="width:1400px">x</div></td><td>as predicted</td></tr></table></body>|' "$out/pages/index.html"
fi
flags=(--headless --no-sandbox --disable-gpu --no-first-run --allow-file-access-from-files
       --user-data-dir="$out/profile" --virtual-time-budget=5000)
pages=$(ls "$out"/pages/*.html | grep -vc page_check)
for page in "$out"/pages/*.html; do
  name=$(basename "$page" .html)
  [ "$name" = page_check ] && continue
  # The page itself: a screenshot at each width, and every console message Chromium logs.
  timeout 60 "$browser" "${flags[@]}" --enable-logging=stderr --v=0 --window-size=1280,1600 \
    --screenshot="$out/screenshots/$name.png" "file://$page" > "$out/$name.console.log" 2>&1
  timeout 60 "$browser" "${flags[@]}" --window-size=390,844 --screenshot="$out/screenshots/$name-390.png" "file://$page" \
    >/dev/null 2>&1
  for shot in "$name.png" "$name-390.png"; do
    if [ ! -s "$out/screenshots/$shot" ]; then echo "FAIL $name: no screenshot $shot"; fi
  done
  if grep -E 'CONSOLE|Uncaught|ERR_FILE_NOT_FOUND|Failed to load resource' "$out/$name.console.log" | grep -v 'page_check' ; then
    echo "FAIL $name: console messages above"
  fi
  # Links, images, the stylesheet and the page's width, checked from inside the browser.
  # Each lab's sheet reads in at most 10 screens of 1280 x 800 (lab 4, the first, in 8).
  budget=0
  case $name in lab4) budget=8 ;; lab[0-9]*) budget=10 ;; esac
  for width in 1280 390; do
    dom=$(timeout 60 "$browser" "${flags[@]}" --dump-dom "file://$out/pages/page_check.html?page=$name.html&width=$width&budget=$budget" 2>/dev/null)
    report=$(printf '%s' "$dom" | sed -n '/<pre id="result">/,/<\/pre>/p' | sed 's/<[^>]*>//g')
    if ! grep -q DONE <<<"$report"; then echo "FAIL $name: the page check did not finish at $width px"; continue; fi
    grep PROBLEM <<<"$report" | sed "s/^/$width px: /"
    echo "$name at $width px: $(grep checked <<<"$report"), $(grep '^screens' <<<"$report")"
  done
done | tee "$out/report.log"
# The pictures a reader looks at first: lab 4's misaligned read and lab 6's tiled product.
for svg in lab4.memory-1 lab4.roofline-1 lab6.memory-2 lab6.roofline-1; do
  [ -f "$out/pages/$svg.svg" ] || continue
  timeout 60 "$browser" "${flags[@]}" --window-size=1280,760 --screenshot="$out/screenshots/$svg.png" \
    "file://$out/pages/$svg.svg" >/dev/null 2>&1
  [ -s "$out/screenshots/$svg.png" ] || echo "FAIL: no screenshot of $svg.svg" | tee -a "$out/report.log"
done
failures=$(grep -c '^FAIL\|PROBLEM' "$out/report.log")
echo "$pages pages, $failures problems; screenshots in $out/screenshots"
if [ "$sabotage" = --sabotage ]; then
  grep -q 'missing image' "$out/report.log" && grep -q 'broken link: no-such-lab.html' "$out/report.log" &&
    grep -q 'console messages' "$out/report.log" && grep -q 'image without a text alternative: labbook.css' "$out/report.log" &&
    grep -q 'picture without a title element' "$out/report.log" &&
    grep -qE '390 px: PROBLEM page .* px wider than 390 px, widest: div "(wide|x)"' "$out/report.log" &&
    grep -q '1280 px: PROBLEM table hides its Verdict column at 1280 px' "$out/report.log" &&
    grep -q '1280 px: PROBLEM over budget: .* screens, budget 8' "$out/report.log" &&
    ! grep -q '1280 px: PROBLEM page .* wider' "$out/report.log" && echo "every sabotage was caught"
  exit
fi
[ "$pages" -ge 2 ] && [ "$failures" -eq 0 ]
