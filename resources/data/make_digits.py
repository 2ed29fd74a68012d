#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Writes digits.csv from scikit-learn's bundled digits.csv.gz (UCI optical digits, test set).

Input (Debian package python3-sklearn):
    /usr/lib/python3/dist-packages/sklearn/datasets/data/digits.csv.gz
    1797 rows, no header: 64 integer pixels (an 8×8 image, row by row, values 0..16) and the
    digit 0..9.
Output: a header row (pixel_<row>_<col> for the 64 pixels, then "label"), then the 1797 rows
unchanged (integers, original order). No scaling: the problem's "scale" option does that.

Usage: python3 make_digits.py [INPUT] [OUTPUT]   (python3 standard library only)
"""
import csv
import gzip
import io
import os
import sys

SOURCE = "/usr/lib/python3/dist-packages/sklearn/datasets/data/digits.csv.gz"


def main():
    source = sys.argv[1] if len(sys.argv) > 1 else SOURCE
    target = sys.argv[2] if len(sys.argv) > 2 else os.path.join(
        os.path.dirname(os.path.abspath(__file__)), "digits.csv")
    with gzip.open(source, "rt", newline="") as f:
        rows = [[int(float(v)) for v in row] for row in csv.reader(f) if row]
    if len(rows) != 1797 or any(len(r) != 65 for r in rows):
        sys.exit("expected 1797 rows of 65 values")
    if any(not 0 <= v <= 16 for r in rows for v in r[:64]) or any(not 0 <= r[64] <= 9 for r in rows):
        sys.exit("unexpected value range")
    header = ["pixel_%d_%d" % (k // 8, k % 8) for k in range(64)] + ["label"]
    with open(target, "w", newline="") as f:
        writer = csv.writer(f, lineterminator="\n")
        writer.writerow(header)
        writer.writerows(rows)


if __name__ == "__main__":
    main()
