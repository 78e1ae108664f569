#!/bin/sh
# Builds web/codeeditor.js and web/codeeditor.css from prism-code-editor
# at the versions of package-lock.json (npm ci), reproducibly: the same
# lock gives the same bytes. Run from the repository root: make code-editor.
set -eu
cd "$(dirname "$0")"
npm ci --no-audit --no-fund --ignore-scripts
pce=node_modules/prism-code-editor/dist
banner="/* prism-code-editor $(node -p "require(\"./node_modules/prism-code-editor/package.json\").version") (MIT License, Copyright (c) 2023 Jonas Pytte), bundled by build/codeeditor; see its README.md */"
node_modules/.bin/esbuild entry.js --bundle --minify --format=iife --target=es2020 --legal-comments=none \
  --banner:js="$banner" --outfile=../../web/codeeditor.js
{
  echo "$banner"
  cat "$pce/layout.css" "$pce/themes/github-light.css" "$pce/guides.css" extra.css
} > ../../web/codeeditor.css
ls -l ../../web/codeeditor.js ../../web/codeeditor.css
