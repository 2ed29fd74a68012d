// SPDX-License-Identifier: GPL-3.0-or-later
//
// Descriptors of the built-in algorithms, one function per algorithm file (see registry.cpp).
#pragma once

#include "dplab/algo/algorithm.h"

#include <initializer_list>
#include <utility>

namespace dplab {

AlgorithmDescriptor describeDgd();              // algo/dgd.cpp
AlgorithmDescriptor describeGradientTracking(); // algo/gradienttracking.cpp
AlgorithmDescriptor describePushPull();         // algo/pushpull.cpp
AlgorithmDescriptor describeRobustDpGt();       // algo/robustdpgt.cpp (paper 003)
AlgorithmDescriptor describeDpop();             // algo/dpop.cpp (paper 003 baseline)
AlgorithmDescriptor describeDiaDsp();           // algo/diadsp.cpp (papers 001/003 baseline)
AlgorithmDescriptor describePgtc();             // algo/pgtc.cpp (paper 001, Algorithm 1)
AlgorithmDescriptor describePpdc();             // algo/ppdc.cpp (paper 001, Algorithm 2)
AlgorithmDescriptor describeLdpGradientTracking(); // algo/ldpgt.cpp (paper 000)
AlgorithmDescriptor describeChenWang48();       // algo/chenwang48.cpp (paper 000 baseline, reconstructed)
AlgorithmDescriptor describeWangNedic47Static(); // algo/wangnedic47.cpp (paper 000 baseline, reconstructed)
AlgorithmDescriptor describeGossip();           // algo/gossipaveraging.cpp (paper 002 teaching)
AlgorithmDescriptor describePdFtgl();           // algo/pdftgl.cpp (paper 002 Algorithm 1)
AlgorithmDescriptor describePdOcg();            // algo/pdocg.cpp (paper 002 Algorithm 3)
AlgorithmDescriptor describePdOgd();            // algo/pdogd.cpp (paper 002 baseline, Li et al. 2018)

/** Shared parameter specs, so every algorithm spells them the same way. */
/** What an algorithm's state(name) answers: the matrix paired with `name` in `states`, or null
 *  when none is (or its entry is null: a state this run does not keep). */
const Eigen::MatrixXd *namedState(const std::string &name,
                                  std::initializer_list<std::pair<const char *, const Eigen::MatrixXd *>> states);

/** The head every algorithm's descriptor starts with: id, display name, paper reference
 *  ("" when none), explanation, the graphs and weights it runs on, and its factory (e.g.
 *  makeAlgorithm<Mine>). The caller adds parameters, privacy parameters, attack and theory. */
AlgorithmDescriptor algorithmDescriptor(std::string id, std::string name, std::string reference,
                                        std::string explanation, GraphKind graphs,
                                        WeightNeeds weights,
                                        std::function<std::unique_ptr<Algorithm>()> create);
/** The factory of an algorithm class with a default constructor. */
template <class A>
std::unique_ptr<Algorithm> makeAlgorithm()
{
    return std::make_unique<A>();
}

/** A rate value(t) ∝ t^exponent for the plot of `metric`, a dashed reference curve. */
TheoryRate powerRate(std::string metric, double exponent, std::string label, std::string citation);

/** A parameter that is a number (constant) or a schedule object, in [min, max] or (min, max]. */
ParamSpec scheduleParam(std::string key, std::string label, Json def, double min, double max,
                        std::string help, RealRange range = {});
ParamSpec stepsizeParam(double def, const std::string &help);
/** A Laplace noise-scale schedule b_k for a shared message (0 = no noise). */
ParamSpec noiseScaleParam(const std::string &key, const std::string &label, const std::string &help);
/** Per-agent noise scale ν^i and decay ς^i (scale ν^i (t+1)^(−ς^i)), as in paper 000. */
ParamSpec perAgentNoiseParam(const std::string &key, const std::string &label, const std::string &help);
ParamSpec perAgentDecayParam(const std::string &key, const std::string &label, double def,
                             const std::string &help);

} // namespace dplab
