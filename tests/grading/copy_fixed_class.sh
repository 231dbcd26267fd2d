#!/bin/bash
# Copies the first eight planted lab4-soa students into DEST: a class fixed for the tests that
# count its students and slices, so that cheats planted later change nothing there.
#   copy_fixed_class.sh SOURCE DEST
set -eu
source=$1; dest=$2
mkdir -p "$dest"
cp -r "$source/tests/grading/lab4-soa/ada_fast" "$dest/"
for student in bob_slow carl_wrong dana_nocompile eve_loop finn_oob gina_snoop hugo_off_by_one; do
  cp "$source/tests/grading/lab4-soa/$student.cu" "$dest/"
done
