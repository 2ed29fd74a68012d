#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Writes breast_cancer_standardized.csv from scikit-learn's bundled breast_cancer.csv.

Input (Debian package python3-sklearn):
    /usr/lib/python3/dist-packages/sklearn/datasets/data/breast_cancer.csv
    line 1: "569,30,malignant,benign" (samples, features, class names for targets 0 and 1);
    then 569 rows of 30 features and the target (0 = malignant, 1 = benign).
Output: a header row (30 feature names and "label"), then 569 rows with every feature mapped
to zero mean and unit population variance, and label +1 for malignant, -1 for benign.

Usage: python3 make_breast_cancer.py [INPUT] [OUTPUT]   (python3 standard library only)
"""
import csv
import math
import os
import sys

SOURCE = "/usr/lib/python3/dist-packages/sklearn/datasets/data/breast_cancer.csv"

FEATURES = [
    "mean_radius", "mean_texture", "mean_perimeter", "mean_area", "mean_smoothness",
    "mean_compactness", "mean_concavity", "mean_concave_points", "mean_symmetry",
    "mean_fractal_dimension",
    "radius_error", "texture_error", "perimeter_error", "area_error", "smoothness_error",
    "compactness_error", "concavity_error", "concave_points_error", "symmetry_error",
    "fractal_dimension_error",
    "worst_radius", "worst_texture", "worst_perimeter", "worst_area", "worst_smoothness",
    "worst_compactness", "worst_concavity", "worst_concave_points", "worst_symmetry",
    "worst_fractal_dimension",
]


def main():
    source = sys.argv[1] if len(sys.argv) > 1 else SOURCE
    target = sys.argv[2] if len(sys.argv) > 2 else os.path.join(
        os.path.dirname(os.path.abspath(__file__)), "breast_cancer_standardized.csv")
    with open(source, newline="") as f:
        reader = csv.reader(f)
        head = next(reader)
        samples, features = int(head[0]), int(head[1])
        classes = head[2:]
        if features != len(FEATURES) or classes != ["malignant", "benign"]:
            sys.exit("unexpected header: %s" % ",".join(head))
        rows = [[float(v) for v in row] for row in reader if row]
    if len(rows) != samples or any(len(r) != features + 1 for r in rows):
        sys.exit("expected %d rows of %d values" % (samples, features + 1))

    columns = list(zip(*(r[:features] for r in rows)))
    means = [sum(c) / samples for c in columns]
    stds = [math.sqrt(sum((v - m) ** 2 for v in c) / samples) for c, m in zip(columns, means)]
    # Target 0 is the first class name, "malignant": the positive class (+1).
    labels = [1 if int(r[features]) == 0 else -1 for r in rows]

    with open(target, "w", newline="") as f:
        writer = csv.writer(f, lineterminator="\n")
        writer.writerow(FEATURES + ["label"])
        for r, label in zip(rows, labels):
            writer.writerow(["%.10g" % ((r[j] - means[j]) / stds[j]) for j in range(features)]
                            + [label])
    print("wrote %s: %d samples, %d features, %d malignant (+1), %d benign (-1)"
          % (target, samples, features, labels.count(1), labels.count(-1)))


if __name__ == "__main__":
    main()
