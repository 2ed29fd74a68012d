// SPDX-License-Identifier: GPL-3.0-or-later
//
// Data sets for the learning problems: loaders (CSV, LIBSVM/SVMlight, IDX), splits across
// agents and into train/test, standardisation, and synthetic generators.
//
// Loaders read plain or gzip-compressed files alike (zlib's gz* functions pass uncompressed
// files through unchanged). Errors on malformed text carry "file:line" in Error::where (line
// numbers are 1-based); errors about a whole file (missing, truncated binary) carry the path.
//
// Threading: plain data and pure functions; random draws come from the Rng passed in.
#pragma once

#include "dplab/common/result.h"
#include "dplab/privacy/rng.h"

#include <Eigen/Core>

#include <cstdint>
#include <string>
#include <vector>

namespace dplab {

/** A labelled data set: row k of X is sample k (features), y(k) its label or target. */
struct Dataset {
    Eigen::MatrixXd X;
    Eigen::VectorXd y;
    std::string source; ///< where it came from: a path, "breast-cancer", "synthetic-linear", ...

    Eigen::Index samples() const { return X.rows(); }
    Eigen::Index features() const { return X.cols(); }
};

/** How loadCsv reads a file. */
struct CsvOptions {
    enum class Header {
        Auto, ///< the first row is a header when one of its cells is not a number
        Yes,  ///< the first row is a header
        No    ///< every row is data
    };
    Header header = Header::Auto;
    /** Index of the label column; negative counts from the end. Default: -1, the last column. */
    int labelColumn = -1;
    /** Name of the label column in the header; when non-empty it overrides labelColumn.
     *  REQUIRES: the file has a header. */
    std::string labelName;
    char separator = ',';
};

/** Loads a numeric CSV file: one sample per row, every cell a finite number, one column the
 *  label. Blank lines and lines starting with '#' are skipped; cells may be quoted.
 *  Errors (file:line): empty file, ragged row, non-numeric or non-finite cell, unknown label
 *  column. Cost: one pass over the file. */
Result<Dataset> loadCsv(const std::string &path, const CsvOptions &options = {});

/** Loads a LIBSVM / SVMlight file: lines "label index:value index:value ...", indices 1-based
 *  and ascending, absent indices are 0; "qid:" tokens and "# comments" are ignored.
 *  `dimension` fixes the number of features (0 = the largest index seen; an index above a
 *  given dimension is an error). The result is dense. Errors carry file:line. */
Result<Dataset> loadLibsvm(const std::string &path, int dimension = 0);

/** Loads an IDX pair (MNIST format): images with dimensions N × r × c (or any N × ...) and
 *  labels with dimension N. Values are kept as stored (bytes 0..255 for MNIST pixels); rows are
 *  the images flattened row-major. `maxSamples` > 0 keeps only the first maxSamples.
 *  Supports every IDX element type (ubyte, byte, short, int, float, double). `.gz` files are read
 *  transparently. Cost: memory samples × features doubles (Fashion-MNIST train: 376 MB). */
Result<Dataset> loadIdx(const std::string &imagesPath, const std::string &labelsPath,
                        Eigen::Index maxSamples = 0);

/** The dimensions stored in an IDX file's header (e.g. {60000, 28, 28}), without reading the
 *  data. Errors carry the path. */
Result<std::vector<std::uint32_t>> idxShape(const std::string &path);

/** The rows `rows` of `data`, in that order (same source). */
Dataset selectRows(const Dataset &data, const std::vector<Eigen::Index> &rows);

/** A random permutation of 0..n-1 (Fisher–Yates with Rng::below). */
std::vector<Eigen::Index> randomPermutation(Eigen::Index n, Rng &rng);

/** Splits 0..samples-1 into `agents` contiguous parts of a shuffled order, sizes differing by at
 *  most one (the first samples % agents parts get one more). Every index appears exactly once.
 *  REQUIRES: agents ≥ 1. Parts are empty when agents > samples. */
std::vector<std::vector<Eigen::Index>> partitionIid(Eigen::Index samples, int agents, Rng &rng);

/** Splits the samples by label: a random order stably sorted by label (ascending), then cut into
 *  contiguous near-equal parts as in partitionIid. Agents therefore see few labels each
 *  (heterogeneous data). REQUIRES: agents ≥ 1. */
std::vector<std::vector<Eigen::Index>> partitionByLabel(const Eigen::VectorXd &labels,
                                                        int agents, Rng &rng);

/** partitionIid applied to a data set: one Dataset per agent. */
std::vector<Dataset> splitIid(const Dataset &data, int agents, Rng &rng);
/** partitionByLabel applied to a data set: one Dataset per agent. */
std::vector<Dataset> splitByLabel(const Dataset &data, int agents, Rng &rng);

struct TrainTest {
    Dataset train;
    Dataset test;
};

/** Shuffles and holds out round(testFraction · samples) samples as the test set.
 *  REQUIRES: 0 ≤ testFraction < 1. */
TrainTest trainTestSplit(const Dataset &data, double testFraction, Rng &rng);

/** Per-feature affine map x ↦ (x − mean) / scale. */
struct Standardization {
    Eigen::RowVectorXd mean;
    Eigen::RowVectorXd scale; ///< population standard deviation; 1 for constant features
};

/** Computes mean and population standard deviation of each column of `data.X` and maps the
 *  columns to zero mean, unit variance in place. Constant columns become 0. Returns the map so
 *  that a test set can be transformed with the training statistics. */
Standardization standardize(Dataset &data);
/** Applies a map computed by standardize() to another data set (same feature count). */
void applyStandardization(const Standardization &map, Dataset &data);

/** Appends a constant-1 feature (the bias / intercept) as the last column. */
void appendBias(Dataset &data);

/** Synthetic regression data: X with i.i.d. N(0, 1) entries, a ground truth w with i.i.d.
 *  N(0, 1) entries, y = X w + noise, noise i.i.d. N(0, noiseStd²). */
Dataset syntheticLinear(Eigen::Index samples, Eigen::Index dimension, double noiseStd, Rng &rng);

/** Synthetic binary classification data, labels ±1: X with i.i.d. N(0, 1) entries and a random
 *  separator w of norm 3 (uniform direction); each label is drawn from the logistic model
 *  P(y = +1 | x) = 1 / (1 + exp(−w·x)), so about 16 % of labels disagree with sign(w·x)
 *  (label noise; the data are not separable and the unregularised optimum exists). */
Dataset syntheticLogistic(Eigen::Index samples, Eigen::Index dimension, Rng &rng);

} // namespace dplab
