#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Checks of scripts/reproduce.py that run nothing: its statistics, and that its two comparisons
(documents against the results file, a quick re-run against the committed numbers) fail on a
wrong number. Python 3 standard library only; run by ctest as ReproduceScriptSelfTest."""

import copy
import json
import math
import os
import shutil
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import reproduce  # noqa: E402


class Statistics(unittest.TestCase):
    def test_exact_signed_rank_p_values(self):
        # All n differences of one sign: p = 2 / 2^n.
        self.assertAlmostEqual(reproduce.wilcoxon_p([1, 2, 3, 4, 5, 6]), 2 / 64)
        self.assertAlmostEqual(reproduce.wilcoxon_p([-1, -2, -3, -4, -5, -6, -7, -8, -9, -10]), 2 / 1024)
        # One negative of rank 1 among six: W+ = 20, P(W+ >= 20) = 2/64, two-sided 4/64.
        self.assertAlmostEqual(reproduce.wilcoxon_p([-1, 2, 3, 4, 5, 6]), 4 / 64)
        # Symmetric differences: no evidence.
        self.assertAlmostEqual(reproduce.wilcoxon_p([-1, 1, -2, 2, -3, 3]), 1.0)
        # Zeros are dropped.
        self.assertAlmostEqual(reproduce.wilcoxon_p([0, 0, 1, 2, 3, 4, 5, 6]), 2 / 64)

    def test_normal_approximation_beyond_fifty(self):
        p = reproduce.wilcoxon_p([(-1) ** k * (k + 1) for k in range(60)])
        self.assertGreater(p, 0.5)
        self.assertLess(reproduce.wilcoxon_p(list(range(1, 61))), 1e-8)

    def test_t_interval(self):
        s = reproduce.summarize([1.0, 2.0, 3.0, 4.0])
        self.assertAlmostEqual(s["mean"], 2.5)
        self.assertAlmostEqual(s["half"], 3.182 * s["std"] / 2)
        self.assertAlmostEqual(reproduce.t975(9), 2.262)
        self.assertTrue(2.021 > reproduce.t975(50) > 2.000)

    def test_paired_verdict(self):
        a = [1.0 + 0.01 * k for k in range(10)]
        b = [x + 0.5 for x in a]
        c = reproduce.paired("a", a, "b", b)
        self.assertTrue(c["significant"])
        self.assertEqual(c["better"], "a")
        self.assertAlmostEqual(c["mean_difference"], -0.5)

    def test_slopes(self):
        xs = [1000.0, 2000.0, 4000.0, 8000.0]
        self.assertAlmostEqual(reproduce.log_log_slope(xs, [x ** -2.0 for x in xs]), -2.0)
        # Repetitions that all decay like x^-1 (different constants): the slope of the mean is
        # -1 and every bootstrap resample gives -1 too; the same call gives the same interval.
        reps = [[c * x ** -1.0 for x in xs] for c in (1.0, 2.0, 3.0, 5.0, 8.0)]
        b = reproduce.bootstrap_slope(xs, reps)
        self.assertAlmostEqual(b["slope"], -1.0)
        self.assertAlmostEqual(b["ci_low"], -1.0)
        self.assertAlmostEqual(b["ci_high"], -1.0)
        noisy = [[c * x ** -1.0 * (1 + 0.1 * ((k + i) % 3 - 1)) for i, x in enumerate(xs)]
                 for k, c in enumerate((1.0, 2.0, 3.0, 5.0, 8.0))]
        self.assertEqual(reproduce.bootstrap_slope(xs, noisy), reproduce.bootstrap_slope(xs, noisy))
        b = reproduce.bootstrap_slope(xs, noisy)
        self.assertLess(b["ci_low"], b["slope"])
        self.assertGreater(b["ci_high"], b["slope"])

    def test_threshold_crossing(self):
        series = {"iteration": [0, 5, 10, 15], "residual": [1.0, 1e-9, 1e-10, 1e-11], "bits": [0, 50, 100, 150]}
        self.assertEqual(reproduce.first_below(series, "residual", 1e-8), (5, 50, True))
        # Reached only at the last record: never reached (its own last iterate is the reference).
        late = {"iteration": [0, 5, 10], "residual": [1.0, 1.0, 0.0], "bits": [0, 50, 100]}
        self.assertEqual(reproduce.first_below(late, "residual", 1e-8), (10, 100, False))

    def test_numbers_for_people(self):
        self.assertEqual(reproduce.sig(0.023912), "0.0239")
        self.assertEqual(reproduce.sig(1.7389e7), "1.74e7")
        self.assertEqual(reproduce.sig(2.10651, 4), "2.107")


class Comparisons(unittest.TestCase):
    def setUp(self):
        self.committed = reproduce.load(reproduce.RESULTS)

    def test_quick_accepts_round_off_and_refuses_a_wrong_number(self):
        claim = next(c["id"] for c in reproduce.CLAIMS if c["quick"] and c["id"] in self.committed["claims"]
                     and self._first_quantity(self.committed["claims"][c["id"]]["quantities"]) is not None)
        fresh = {"claims": {claim: copy.deepcopy(self.committed["claims"][claim])}}
        self.assertEqual(reproduce.compare_quick(self.committed, fresh), [])
        # Round-off of another summation order: far inside the interval.
        q = self._first_quantity(fresh["claims"][claim]["quantities"])
        q["mean"] *= 1 + 1e-12
        self.assertEqual(reproduce.compare_quick(self.committed, fresh), [])
        # A number off by twice the committed half-width fails, naming the quantity.
        q["mean"] += 2 * q["half"]
        failures = reproduce.compare_quick(self.committed, fresh)
        self.assertEqual(len(failures), 1, failures)
        self.assertIn(claim, failures[0])

    def _first_quantity(self, node):
        if isinstance(node, dict):
            if node.get("half") is not None and node.get("mean") is not None:
                return node
            for v in node.values():
                found = self._first_quantity(v)
                if found is not None:
                    return found
        return None

    def test_documents_check_names_a_changed_number(self):
        with tempfile.TemporaryDirectory() as root:
            for doc in reproduce.DOCUMENTS:
                os.makedirs(os.path.dirname(os.path.join(root, doc)), exist_ok=True)
                shutil.copy(os.path.join(reproduce.ROOT, doc), os.path.join(root, doc))
            self.assertEqual(reproduce.check_documents(self.committed, root), [])
            # Change one generated number in claims.md.
            path = os.path.join(root, "docs", "claims.md")
            with open(path, encoding="utf-8") as f:
                text = f.read()
            start = text.index("<!-- r:")
            value_start = text.index("-->", start) + 3
            value_end = text.index("<!-- /r -->", value_start)
            text = text[:value_start] + "9" + text[value_start:value_end] + text[value_end:]
            with open(path, "w", encoding="utf-8") as f:
                f.write(text)
            problems = reproduce.check_documents(self.committed, root)
            self.assertEqual(len(problems), 1)
            self.assertEqual(problems[0][0], "docs/claims.md")
            # And a changed results file is caught just as well.
            shutil.copy(os.path.join(reproduce.ROOT, "docs", "claims.md"), path)
            changed = copy.deepcopy(self.committed)
            cid = next(iter(changed["claims"]))
            q = self._first_quantity(changed["claims"][cid]["quantities"])
            q["mean"] = q["mean"] * 2 + 1
            self.assertNotEqual(reproduce.check_documents(changed, root), [])
            # A claim whose generated parts are gone from a document it names is caught too.
            cid = next(c["id"] for c in reproduce.CLAIMS if "docs/paper002-results.md" in c["documents"]
                       and c["id"] in self.committed["claims"])
            doc = os.path.join(root, "docs", "paper002-results.md")
            with open(doc, encoding="utf-8") as f:
                text = f.read()
            with open(doc, "w", encoding="utf-8") as f:
                f.write(text.replace("reproduce:%s " % cid, "reproduce:gone ").replace("<!-- r:%s." % cid, "<!-- gone."))
            problems = reproduce.check_documents(self.committed, root)
            self.assertTrue(any(cid in p[2] for p in problems), problems)


class HcGrid(unittest.TestCase):
    """The h/C grid's points and its verdicts on made-up losses whose answer is known."""

    def test_the_fidelity_rounds_24_points(self):
        points = reproduce.p002_grid_points()
        self.assertEqual(len(points), 24)
        self.assertEqual(sum(1 for p in points if p[2] == 1), 15)
        self.assertEqual(sum(1 for p in points if p[2] == 0.1), 9)
        self.assertTrue(all(h >= 3 for eps, h, _ in points if eps == 5))
        keys = [reproduce.p002_grid_key(*p) for p in points]
        self.assertEqual(len(set(keys)), 24)
        self.assertFalse(any("." in k for k in keys))  # the documents' markers split keys at dots

    @staticmethod
    def synthetic(clip_shift=0.0):
        """PD-FTGL best at h_scale 3, PD-OCG at 10 and 0.02 above it, both falling with ε; C = 0.1 equal to
        C = 1 plus clip_shift."""
        entry, losses = {"points": {}, "comparisons": [], "quantities": {}}, {}
        for eps, h, clip in reproduce.p002_grid_points():
            shift = clip_shift if clip == 0.1 else 0.0
            ftgl = [2.3 + 0.1 / eps + 0.01 * abs(math.log10(h / 3)) + 0.001 * s + shift for s in range(10)]
            ocg = [2.32 + 0.1 / eps + 0.01 * abs(math.log10(h / 10)) + 0.0013 * s + shift for s in range(10)]
            values = {"PD-FTGL": {"average_loss": ftgl, "train_accuracy": [0.5] * 10},
                      "PD-OCG": {"average_loss": ocg, "train_accuracy": [0.6] * 10}}
            key = reproduce.p002_grid_key(eps, h, clip)
            entry["points"][key] = reproduce.p002_grid_point(eps, h, clip, values)
            losses[key] = {label: v["average_loss"] for label, v in values.items()}
        reproduce.p002_hc_grid_verdicts(entry, losses)
        return entry

    def test_best_points_order_and_clip(self):
        e = self.synthetic()
        for ek in ("2p5", "5", "10"):
            self.assertEqual(e["quantities"]["best"][ek]["PD-FTGL"]["h_scale"], 3)
            self.assertEqual(e["quantities"]["best"][ek]["PD-OCG"]["h_scale"], 10)
            self.assertEqual(e["checks"]["ftgl_vs_ocg_at_best"][ek], "PD-FTGL lower")
        # C = 0.1 repeats C = 1 exactly: it ties with the best point, and C does not matter
        self.assertEqual(e["quantities"]["best"]["10"]["PD-FTGL"]["ties"], ["eps10-h3-C0p1"])
        self.assertFalse(e["checks"]["clip_matters"])
        self.assertTrue(all(e["quantities"]["improves_everywhere"].values()))
        self.assertFalse(e["checks"]["ocg_spread_smaller"])  # the same spread per seed: a tie
        self.assertIn("PD-FTGL < PD-OCG at each one's best: ε = 2.5 PD-FTGL lower", e["verdict"])
        self.assertIn("| 10 | 3 | 1 | **", reproduce.render_p002_hc_grid(e))
        shifted = self.synthetic(clip_shift=0.05)
        self.assertTrue(shifted["checks"]["clip_matters"])
        self.assertAlmostEqual(shifted["quantities"]["clip"]["largest_per_seed_difference"], 0.05)


class WorkFolder(unittest.TestCase):
    def test_a_finished_command_is_reused_and_another_one_is_run(self):
        with tempfile.TemporaryDirectory() as work:
            cli = os.path.join(work, "fake-cli")
            with open(cli, "w", encoding="utf-8") as f:
                f.write("#!/bin/sh\necho call >> '%s'\n" % os.path.join(work, "calls"))
            os.chmod(cli, 0o755)
            runner = reproduce.Runner(cli, 1, work, verbose=False, resume=True)
            out = runner.folder("claim")
            self.assertEqual(out, os.path.join(work, "claim"))  # a stable name a later run finds
            first = runner.run(["run", "a.json", "--out", out])
            self.assertEqual(runner.run(["run", "a.json", "--out", out])[:2], first[:2])  # reused: recorded times
            runner.run(["run", "b.json", "--out", out])  # another command: run again
            with open(os.path.join(work, "calls"), encoding="utf-8") as f:
                self.assertEqual(len(f.read().split()), 2)


if __name__ == "__main__":
    unittest.main(verbosity=2)
