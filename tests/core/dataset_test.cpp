// SPDX-License-Identifier: GPL-3.0-or-later
#include "dplab/problem/datascan.h"
#include "dplab/problem/dataset.h"
#include "dplab/problem/problem.h"

#include "../common/tempdir.h"

#include <Eigen/QR>
#include <gtest/gtest.h>
#include <zlib.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <set>

#include <sys/resource.h>

namespace dplab {
namespace {

namespace fs = std::filesystem;

/** A fresh temporary folder per test, removed afterwards. */
class TempDir : public ::testing::Test
{
protected:

    std::string write(const std::string &name, const std::string &text) const
    {
        const std::string path = (mTemp.path() / name).string();
        std::ofstream(path, std::ios::binary) << text;
        return path;
    }
    std::string writeGz(const std::string &name, const std::string &bytes) const
    {
        const std::string path = (mTemp.path() / name).string();
        gzFile f = gzopen(path.c_str(), "wb");
        gzwrite(f, bytes.data(), static_cast<unsigned>(bytes.size()));
        gzclose(f);
        return path;
    }

    test::TempDir mTemp;
};

using Csv = TempDir;
using Libsvm = TempDir;
using Idx = TempDir;

// --- CSV -------------------------------------------------------------------------------------

TEST_F(Csv, HeaderIsDetectedAndLastColumnIsTheLabel)
{
    const auto path = write("d.csv", "a,b,label\n1,2,1\n3,4.5,-1\n\n-1e-3,+7,1\n");
    auto data = loadCsv(path);
    ASSERT_TRUE(data.ok()) << data.error().toString();
    ASSERT_EQ(data->samples(), 3);
    ASSERT_EQ(data->features(), 2);
    EXPECT_EQ(data->X(1, 1), 4.5);
    EXPECT_EQ(data->X(2, 0), -1e-3);
    EXPECT_EQ(data->X(2, 1), 7.0);
    EXPECT_EQ(data->y(1), -1.0);
    EXPECT_EQ(data->source, path);
}

TEST_F(Csv, LabelColumnByIndexOrName)
{
    const auto path = write("d.csv", "a,b,c\n1,2,3\n4,5,6\n");
    CsvOptions byName;
    byName.labelName = "a";
    auto named = loadCsv(path, byName);
    ASSERT_TRUE(named.ok()) << named.error().toString();
    EXPECT_EQ(named->y(1), 4.0);
    EXPECT_EQ(named->X(1, 0), 5.0);
    EXPECT_EQ(named->X(1, 1), 6.0);
    CsvOptions byIndex;
    byIndex.labelColumn = 1;
    auto indexed = loadCsv(path, byIndex);
    ASSERT_TRUE(indexed.ok());
    EXPECT_EQ(indexed->y(0), 2.0);
    EXPECT_EQ(indexed->X(0, 1), 3.0);

    CsvOptions unknown;
    unknown.labelName = "z";
    auto missing = loadCsv(path, unknown);
    ASSERT_FALSE(missing.ok());
    EXPECT_EQ(missing.error().where, path + ":1");
    CsvOptions outOfRange;
    outOfRange.labelColumn = 3;
    EXPECT_FALSE(loadCsv(path, outOfRange).ok());
}

TEST_F(Csv, AByteOrderMarkIsNotPartOfTheFirstColumnName)
{
    // Spreadsheet programs save "UTF-8 CSV" with a byte-order mark; the label in the first
    // column must still be found by name, in a plain and in a gzip file, and the header scan
    // (validate) sees the same columns.
    const std::string text = "\xEF\xBB\xBFlabel,a,b\n1,2,3\n-1,5,6\n";
    for (const auto &path : {write("bom.csv", text), writeGz("bom.csv.gz", text)}) {
        CsvOptions byName;
        byName.labelName = "label";
        auto named = loadCsv(path, byName);
        ASSERT_TRUE(named.ok()) << named.error().toString();
        EXPECT_EQ(named->y(1), -1.0);
        EXPECT_EQ(named->features(), 2);
        EXPECT_EQ(named->X(1, 0), 5.0);
        auto header = scanCsvHeader(path, byName);
        ASSERT_TRUE(header.ok()) << header.error().toString();
        EXPECT_EQ(header->samples, 2);
        EXPECT_EQ(header->features, 2);
    }
    // Without a header the mark does not spoil the first number either.
    auto numeric = loadCsv(write("bom-numeric.csv", "\xEF\xBB\xBF" "1,2,3\n4,5,6\n"));
    ASSERT_TRUE(numeric.ok()) << numeric.error().toString();
    EXPECT_EQ(numeric->samples(), 2);
    EXPECT_EQ(numeric->X(0, 0), 1.0);
    // Only at the very start of the file: a mark inside a later line is an ordinary (bad) cell.
    EXPECT_FALSE(loadCsv(write("bom-late.csv", "a,b\n1,2\n\xEF\xBB\xBF" "3,4\n")).ok());
}

TEST_F(Csv, NumericFirstRowIsDataUnlessToldOtherwise)
{
    const auto path = write("d.csv", "1,2,3\n4,5,6\n");
    auto automatic = loadCsv(path);
    ASSERT_TRUE(automatic.ok());
    EXPECT_EQ(automatic->samples(), 2);
    CsvOptions header;
    header.header = CsvOptions::Header::Yes;
    auto skipped = loadCsv(path, header);
    ASSERT_TRUE(skipped.ok());
    EXPECT_EQ(skipped->samples(), 1);
    EXPECT_EQ(skipped->y(0), 6.0);
}

TEST_F(Csv, QuotedCellsAndGzip)
{
    const std::string text = "\"x, first\",\"y\"\n\"1.5\",2\n";
    auto plain = loadCsv(write("q.csv", text));
    ASSERT_TRUE(plain.ok()) << plain.error().toString();
    EXPECT_EQ(plain->X(0, 0), 1.5);
    auto gz = loadCsv(writeGz("q.csv.gz", text));
    ASSERT_TRUE(gz.ok()) << gz.error().toString();
    EXPECT_EQ(gz->X, plain->X);
    EXPECT_EQ(gz->y, plain->y);
}

TEST_F(Csv, MalformedFilesNameFileAndLine)
{
    struct Case {
        const char *text;
        int line;
    };
    // Line numbers count blank and comment lines, as an editor does.
    const Case cases[] = {
        {"a,b,c\n1,2,3\n4,5\n", 3},          // ragged row
        {"1,2,3\n1,x,3\n", 2},               // not a number
        {"1,2\n\n# comment\n3,4y\n", 4},     // trailing garbage after blank + comment lines
        {"a,b\n1,nan\n", 2},                 // not finite
        {"a,b\n1,\n", 2},                    // empty cell
        {"", 1},                             // empty file
        {"a,b\n", 1},                        // header only
    };
    int k = 0;
    for (const auto &c : cases) {
        const auto path = write("bad" + std::to_string(k++) + ".csv", c.text);
        auto result = loadCsv(path);
        ASSERT_FALSE(result.ok()) << c.text;
        EXPECT_EQ(result.error().where, path + ":" + std::to_string(c.line)) << c.text;
        EXPECT_EQ(result.error().code, ErrorCode::ParseError) << c.text;
    }
    const auto missing = (mTemp.path() / "missing.csv").string();
    auto result = loadCsv(missing);
    ASSERT_FALSE(result.ok());
    EXPECT_EQ(result.error().code, ErrorCode::NotFound);
    EXPECT_EQ(result.error().where, missing);
}

// --- LIBSVM ----------------------------------------------------------------------------------

TEST_F(Libsvm, SparseRowsBecomeDense)
{
    const auto path = write("d.svm", "# comment\n+1 1:0.5 3:2\n-1 qid:3 2:1.5 # tail\n\n2\n");
    auto data = loadLibsvm(path);
    ASSERT_TRUE(data.ok()) << data.error().toString();
    ASSERT_EQ(data->samples(), 3);
    ASSERT_EQ(data->features(), 3);
    Eigen::MatrixXd expected(3, 3);
    expected << 0.5, 0, 2, 0, 1.5, 0, 0, 0, 0;
    EXPECT_EQ(data->X, expected);
    EXPECT_EQ(data->y, Eigen::Vector3d(1, -1, 2));
    auto wide = loadLibsvm(path, 5);
    ASSERT_TRUE(wide.ok());
    EXPECT_EQ(wide->features(), 5);
    EXPECT_EQ(wide->X.rightCols(2).norm(), 0.0);
}

TEST_F(Libsvm, MalformedFilesNameFileAndLine)
{
    struct Case {
        const char *text;
        int line;
        int dimension;
    };
    const Case cases[] = {
        {"1 0:1.5\n", 1, 0},          // indices are 1-based
        {"1 1:2\n-1 a:b\n", 2, 0},    // index not a number
        {"1 1:2\n\n-1 2:b\n", 3, 0},  // value not a number
        {"1 3:1 2:1\n", 1, 0},        // not ascending
        {"1 1:1 1:2\n", 1, 0},        // repeated
        {"x 1:1\n", 1, 0},            // bad label
        {"1 1:1\n1 2\n", 2, 0},       // missing colon
        {"1 1:1\n1 4:1\n", 2, 3},     // beyond the given dimension
        {"", 1, 0},                   // empty file
        {"# only a comment\n", 1, 0}, // no samples
    };
    int k = 0;
    for (const auto &c : cases) {
        const auto path = write("bad" + std::to_string(k++) + ".svm", c.text);
        auto result = loadLibsvm(path, c.dimension);
        ASSERT_FALSE(result.ok()) << c.text;
        EXPECT_EQ(result.error().where, path + ":" + std::to_string(c.line)) << c.text;
    }
    const auto missing = (mTemp.path() / "missing.svm").string();
    auto result = loadLibsvm(missing);
    ASSERT_FALSE(result.ok());
    EXPECT_EQ(result.error().code, ErrorCode::NotFound);
    EXPECT_EQ(result.error().where, missing);
}

// --- IDX -------------------------------------------------------------------------------------

std::string idxHeader(unsigned char type, std::vector<std::uint32_t> dims)
{
    std::string s{'\0', '\0', static_cast<char>(type), static_cast<char>(dims.size())};
    for (auto d : dims)
        for (int shift = 24; shift >= 0; shift -= 8)
            s += static_cast<char>((d >> shift) & 0xff);
    return s;
}

TEST_F(Idx, ReadsImagesRowMajorAndLabels)
{
    // Three 2×2 images with pixels 10·k + (0, 1, 2, 3), labels 7, 8, 9.
    std::string images = idxHeader(0x08, {3, 2, 2});
    for (int k = 0; k < 3; ++k)
        for (int p = 0; p < 4; ++p)
            images += static_cast<char>(10 * k + p);
    const std::string labels = idxHeader(0x08, {3}) + "\x07\x08\x09";
    const auto imagesPath = write("images.idx", images);
    auto data = loadIdx(imagesPath, write("labels.idx", labels));
    ASSERT_TRUE(data.ok()) << data.error().toString();
    ASSERT_EQ(data->samples(), 3);
    ASSERT_EQ(data->features(), 4);
    EXPECT_EQ(data->X(2, 1), 21.0);
    EXPECT_EQ(data->X(1, 3), 13.0);
    EXPECT_EQ(data->y, Eigen::Vector3d(7, 8, 9));

    auto gz = loadIdx(writeGz("images.idx.gz", images), writeGz("labels.idx.gz", labels), 2);
    ASSERT_TRUE(gz.ok()) << gz.error().toString();
    EXPECT_EQ(gz->samples(), 2);
    EXPECT_EQ(gz->X, data->X.topRows(2));

    // A big-endian float element type.
    std::string floats = idxHeader(0x0D, {1, 1});
    floats += std::string("\x3f\xc0\x00\x00", 4); // 1.5f
    auto real = loadIdx(write("f.idx", floats), write("l1.idx", idxHeader(0x08, {1}) + "\x01"));
    ASSERT_TRUE(real.ok()) << real.error().toString();
    EXPECT_EQ(real->X(0, 0), 1.5);
}

TEST_F(Idx, BadFilesAreErrors)
{
    const auto images = write("images.idx", idxHeader(0x08, {2, 1}) + "\x01\x02");
    const auto threeLabels = write("labels.idx", idxHeader(0x08, {3}) + "\x01\x02\x03");
    auto mismatch = loadIdx(images, threeLabels);
    ASSERT_FALSE(mismatch.ok());
    EXPECT_EQ(mismatch.error().where, threeLabels);
    const auto truncated = write("t.idx", idxHeader(0x08, {4, 1}) + "\x01");
    const auto fourLabels = write("l4.idx", idxHeader(0x08, {4}) + "\x01\x02\x03\x04");
    auto shortFile = loadIdx(truncated, fourLabels);
    ASSERT_FALSE(shortFile.ok());
    EXPECT_EQ(shortFile.error().where, truncated);
    EXPECT_FALSE(loadIdx(write("junk.idx", "hello"), fourLabels).ok());
    auto missing = loadIdx((mTemp.path() / "none.idx").string(), fourLabels);
    ASSERT_FALSE(missing.ok());
    EXPECT_EQ(missing.error().code, ErrorCode::NotFound);
    // Fuzz finding: zero images of 4210752250 × 4210752250 passed the size check (0 bytes
    // declared) and overflowed the feature count. The non-zero dimensions are bounded now.
    const auto huge = write("huge.idx", idxHeader(0x08, {0, 4210752250u, 4210752250u}));
    const auto noLabels = write("l0.idx", idxHeader(0x08, {0}));
    auto empty = loadIdx(huge, noLabels);
    ASSERT_FALSE(empty.ok());
    EXPECT_NE(empty.error().message.find("2^62"), std::string::npos) << empty.error().toString();
    EXPECT_FALSE(idxDeclaredBytes({0, 4210752250u, 4210752250u}, 1, "x").ok());
    EXPECT_EQ(*idxDeclaredBytes({0, 28, 28}, 1, "x"), 4u + 12u);
}

/** The peak resident memory of this process so far (ctest runs each test in its own process). */
double peakResidentMiB()
{
    rusage usage{};
    getrusage(RUSAGE_SELF, &usage);
    return static_cast<double>(usage.ru_maxrss) / 1024.0;
}

TEST_F(Idx, ReadBuffersAreSizedByTheImagesRead)
{
    // Fuzz finding: the read buffers were sized for blocks of up to 512 images (≤ 1 GiB), however
    // few images the file held. Zero images of 14 × 339712 doubles allocated and zeroed 1 GiB,
    // one image of 2 MiB bytes as much. Now a block holds at most the images read.
    const double before = peakResidentMiB();
    const auto none = write("none.idx", idxHeader(0x0E, {0, 14, 339712}));
    auto empty = loadIdx(none, write("l0.idx", idxHeader(0x08, {0})));
    ASSERT_TRUE(empty.ok()) << empty.error().toString();
    EXPECT_EQ(empty->samples(), 0);
    EXPECT_EQ(empty->features(), 14 * 339712);

    const std::uint32_t pixels = 2u << 20;
    std::string one = idxHeader(0x08, {1, pixels});
    one.append(pixels, '\x05');
    auto single = loadIdx(write("one.idx", one), write("l1.idx", idxHeader(0x08, {1}) + "\x02"));
    ASSERT_TRUE(single.ok()) << single.error().toString();
    ASSERT_EQ(single->features(), pixels);
    EXPECT_EQ(single->X(0, pixels - 1), 5.0);
    EXPECT_EQ(single->y(0), 2.0);
    // The matrix (16 MiB) and one image's buffer (2 MiB), the file text and its copy: well under
    // 128 MiB; before the fix, more than 1 GiB.
    EXPECT_LT(peakResidentMiB() - before, 128.0);
}

TEST(FashionMnist, LoadsFromTheDebianPackage)
{
    // Debian's dataset-fashion-mnist: gzip-compressed IDX files.
    const std::string dir = "/usr/share/datasets/fashion-mnist/";
    const std::string trainImages = dir + "train-images-idx3-ubyte.gz";
    const std::string trainLabels = dir + "train-labels-idx1-ubyte.gz";
    const std::string testImages = dir + "t10k-images-idx3-ubyte.gz";
    const std::string testLabels = dir + "t10k-labels-idx1-ubyte.gz";
    for (const auto &f : {trainImages, trainLabels, testImages, testLabels})
        if (!fs::exists(f))
            GTEST_SKIP() << "dataset-fashion-mnist is not installed (" << f << ")";

    auto shape = idxShape(trainImages);
    ASSERT_TRUE(shape.ok()) << shape.error().toString();
    EXPECT_EQ(*shape, (std::vector<std::uint32_t>{60000, 28, 28}));
    EXPECT_EQ(*idxShape(trainLabels), std::vector<std::uint32_t>{60000});

    // The whole test set (10000 × 784) read to its last byte; the training set's first 6000
    // images (all 60000 take 376 MB, whose first touch alone costs seconds on some VMs).
    auto test = loadIdx(testImages, testLabels);
    ASSERT_TRUE(test.ok()) << test.error().toString();
    EXPECT_EQ(test->samples(), 10000);
    EXPECT_EQ(test->features(), 784);
    auto train = loadIdx(trainImages, trainLabels, 6000);
    ASSERT_TRUE(train.ok()) << train.error().toString();
    EXPECT_EQ(train->samples(), 6000);
    EXPECT_EQ(train->features(), 784);
    for (const Dataset *data : {&*test, &*train}) {
        EXPECT_EQ(data->y.minCoeff(), 0.0);
        EXPECT_EQ(data->y.maxCoeff(), 9.0);
        EXPECT_EQ(data->X.minCoeff(), 0.0);
        EXPECT_EQ(data->X.maxCoeff(), 255.0);
    }
    // Fashion-MNIST's test set is balanced: 1000 images per class.
    for (int label = 0; label < 10; ++label)
        EXPECT_EQ((test->y.array() == label).count(), 1000) << "class " << label;
}

// --- Splits ----------------------------------------------------------------------------------

void expectPartition(const std::vector<std::vector<Eigen::Index>> &parts, Eigen::Index n)
{
    std::vector<int> seen(static_cast<std::size_t>(n), 0);
    std::size_t smallest = parts.front().size();
    std::size_t largest = 0;
    for (const auto &part : parts) {
        smallest = std::min(smallest, part.size());
        largest = std::max(largest, part.size());
        for (auto k : part) {
            ASSERT_GE(k, 0);
            ASSERT_LT(k, n);
            ++seen[static_cast<std::size_t>(k)];
        }
    }
    for (int count : seen)
        EXPECT_EQ(count, 1);
    EXPECT_LE(largest - smallest, 1u);
}

TEST(Split, IidPartitionsEverySampleOnce)
{
    for (int agents : {1, 3, 7, 10}) {
        Rng rng(11);
        const auto parts = partitionIid(10, agents, rng);
        ASSERT_EQ(parts.size(), static_cast<std::size_t>(agents));
        expectPartition(parts, 10);
    }
    Rng a(5), b(5), c(6);
    EXPECT_EQ(partitionIid(50, 4, a), partitionIid(50, 4, b));
    EXPECT_NE(partitionIid(50, 4, b), partitionIid(50, 4, c));
}

TEST(Split, ByLabelGivesAgentsSortedLabels)
{
    // 30 samples with labels 0, 1, 2 interleaved; X holds the sample index to trace rows.
    Dataset data;
    data.X.resize(30, 1);
    data.y.resize(30);
    for (int k = 0; k < 30; ++k) {
        data.X(k, 0) = k;
        data.y(k) = k % 3;
    }
    Rng rng(3);
    const auto parts = partitionByLabel(data.y, 3, rng);
    expectPartition(parts, 30);
    for (int i = 0; i < 3; ++i)
        for (auto k : parts[static_cast<std::size_t>(i)])
            EXPECT_EQ(data.y(k), i) << "agent " << i << " got a sample of another label";

    Rng again(3);
    const auto agents = splitByLabel(data, 4, again);
    double previous = -1.0;
    std::set<double> rows;
    for (const auto &agent : agents)
        for (Eigen::Index k = 0; k < agent.samples(); ++k) {
            EXPECT_GE(agent.y(k), previous);
            previous = agent.y(k);
            EXPECT_EQ(data.y(static_cast<Eigen::Index>(agent.X(k, 0))), agent.y(k));
            rows.insert(agent.X(k, 0));
        }
    EXPECT_EQ(rows.size(), 30u);
}

TEST(Split, SplitIidMatchesItsPartition)
{
    Dataset data;
    data.X = Eigen::MatrixXd::Random(13, 2);
    data.y = Eigen::VectorXd::LinSpaced(13, 0, 12);
    Rng a(9), b(9);
    const auto parts = partitionIid(13, 4, a);
    const auto agents = splitIid(data, 4, b);
    for (std::size_t i = 0; i < parts.size(); ++i) {
        const auto expected = selectRows(data, parts[i]);
        EXPECT_EQ(agents[i].X, expected.X);
        EXPECT_EQ(agents[i].y, expected.y);
    }
}

TEST(Split, TrainTestHoldsOutTheFraction)
{
    Dataset data;
    data.X.resize(101, 1);
    data.y = Eigen::VectorXd::LinSpaced(101, 0, 100);
    data.X.col(0) = data.y;
    Rng rng(1);
    const auto parts = trainTestSplit(data, 0.2, rng);
    EXPECT_EQ(parts.test.samples(), 20); // round(20.2)
    EXPECT_EQ(parts.train.samples(), 81);
    std::set<double> all;
    for (const auto *d : {&parts.train, &parts.test})
        for (Eigen::Index k = 0; k < d->samples(); ++k) {
            EXPECT_EQ(d->X(k, 0), d->y(k));
            all.insert(d->y(k));
        }
    EXPECT_EQ(all.size(), 101u);
    Rng none(1);
    EXPECT_EQ(trainTestSplit(data, 0.0, none).test.samples(), 0);
}

// --- Transformations and generators ----------------------------------------------------------

TEST(Standardize, ZeroMeanUnitVarianceConstantColumnsZero)
{
    Dataset data;
    data.X = Eigen::MatrixXd::Random(50, 3) * 4.0;
    data.X.col(0).array() += 10.0;
    data.X.col(2).setConstant(7.0);
    data.y.setZero(50);
    Dataset test = data;
    const auto map = standardize(data);
    const Eigen::RowVectorXd mean = data.X.colwise().mean();
    EXPECT_LT(mean.cwiseAbs().maxCoeff(), 1e-12);
    for (int j = 0; j < 2; ++j)
        EXPECT_NEAR(std::sqrt(data.X.col(j).squaredNorm() / 50.0), 1.0, 1e-12);
    EXPECT_EQ(data.X.col(2).cwiseAbs().maxCoeff(), 0.0);
    applyStandardization(map, test);
    EXPECT_LT((test.X - data.X).cwiseAbs().maxCoeff(), 1e-12);
}

TEST(Synthetic, LinearDataFitAModelExactlyWithoutNoise)
{
    Rng rng(4);
    const auto data = syntheticLinear(40, 5, 0.0, rng);
    ASSERT_EQ(data.samples(), 40);
    ASSERT_EQ(data.features(), 5);
    // y lies in the column space of X.
    const Eigen::VectorXd w = data.X.colPivHouseholderQr().solve(data.y);
    EXPECT_LT((data.X * w - data.y).norm(), 1e-10 * data.y.norm());
    Rng same(4);
    EXPECT_EQ(syntheticLinear(40, 5, 0.0, same).X, data.X);
    Rng noisy(4);
    const auto withNoise = syntheticLinear(40, 5, 0.5, noisy);
    const Eigen::VectorXd v = withNoise.X.colPivHouseholderQr().solve(withNoise.y);
    EXPECT_GT((withNoise.X * v - withNoise.y).norm(), 0.1);
}

TEST(Synthetic, LogisticLabelsArePlusMinusOneAndMostlyLinear)
{
    Rng rng(8);
    const auto data = syntheticLogistic(2000, 4, rng);
    EXPECT_TRUE((data.y.array().abs() == 1.0).all());
    const auto positives = (data.y.array() > 0).count();
    EXPECT_GT(positives, 800);
    EXPECT_LT(positives, 1200);
    // The best linear separator (least squares on ±1 labels, a crude fit) already classifies
    // most samples correctly, but not all: the labels are noisy.
    const Eigen::VectorXd w = data.X.colPivHouseholderQr().solve(data.y);
    const double agree =
        ((data.X * w).array().sign() == data.y.array()).cast<double>().mean();
    EXPECT_GT(agree, 0.75);
    EXPECT_LT(agree, 0.97);
}

TEST(Bundled, BreastCancerIsStandardised)
{
    const std::string path = resourceDir() + "/data/breast_cancer_standardized.csv";
    auto data = loadCsv(path);
    ASSERT_TRUE(data.ok()) << data.error().toString();
    ASSERT_EQ(data->samples(), 569);
    ASSERT_EQ(data->features(), 30);
    EXPECT_EQ((data->y.array() == 1.0).count(), 212);  // malignant
    EXPECT_EQ((data->y.array() == -1.0).count(), 357); // benign
    const Eigen::RowVectorXd mean = data->X.colwise().mean();
    EXPECT_LT(mean.cwiseAbs().maxCoeff(), 1e-8);
    for (Eigen::Index j = 0; j < 30; ++j)
        EXPECT_NEAR(std::sqrt((data->X.col(j).array() - mean(j)).square().mean()), 1.0, 1e-8)
            << "column " << j;
}

} // namespace
} // namespace dplab
