#!/bin/sh
# The PDFs here are made by pdfTeX from the .tex beside them (Debian 12's TeX Live 2022: texlive-latex-base,
# texlive-latex-recommended, texlive-latex-extra, cm-super), then committed: the tests read them, and need no TeX.
set -e
cd "$(dirname "$0")"
for source in *.tex; do
  pdflatex -interaction=batchmode "$source" >/dev/null
  pdflatex -interaction=batchmode "$source" >/dev/null  # the table of contents needs a second run
done
rm -f ./*.aux ./*.log ./*.toc ./*.hd ./*.out
