"""Checkpoints.best() and should_stop() on verdicts as the scorer shapes them (CheckpointStatus): the order
they arrive in, ties, timed-out and unanswered checkpoints, rewritten answers, one task's view. The figures
stand for what a scorer published; the end-to-end run on a real scorer is TrainingExampleTest's."""
import unittest

from mmgr_client.checkpoints import Checkpoints


def comparison(baseline, difference, ci_low, ci_high):
    return {"baselineCheckpointId": baseline, "difference": difference, "ciLow": ci_low, "ciHigh": ci_high,
            "pValue": 0.5, "partial": False, "significantDrop": False}


def task_status(task, rate, vs_previous=None, vs_best=None):
    return {"task": task, "primaryRate": rate, "primaryCiLow": None if rate is None else rate - 0.1,
            "primaryCiHigh": None if rate is None else rate + 0.1, "vsPrevious": vs_previous, "vsBest": vs_best,
            "alerts": []}


def verdict(ckpt, step, rate, vs_previous=None, vs_best=None, status="complete", tasks=(), updated="t1"):
    overall = task_status("*", rate, vs_previous, vs_best)
    return {"status": status, "overall": overall, "tasks": list(tasks), "alerts": [],
            "record": {"checkpointId": ckpt, "trainingStep": step, "updatedAt": updated}}


SIGNIFICANT = (0.3, 0.1, 0.5)      # difference, interval above 0
NOT_SIGNIFICANT = (0.02, -0.08, 0.12)
DROP = (-0.2, -0.35, -0.05)


def run_of(*entries):
    """A run's verdicts in step order: (rate, (difference, low, high) against the best earlier or None)."""
    book = Checkpoints()
    best_id = None
    best_rate = None
    for i, (rate, vs) in enumerate(entries):
        ckpt = "c%d" % i
        previous = "c%d" % (i - 1) if i else None
        cmp = None if vs is None else comparison(best_id, *vs)
        # the scorer leaves vsBest out when the best earlier checkpoint is the previous one
        if best_id == previous:
            book.update(verdict(ckpt, 10 * i, rate, vs_previous=cmp))
        else:
            book.update(verdict(ckpt, 10 * i, rate, vs_previous=comparison(previous, 0.0, -0.1, 0.1), vs_best=cmp))
        if best_rate is None or rate > best_rate:
            best_id, best_rate = ckpt, rate
    return book


class Best(unittest.TestCase):

    def test_the_highest_primary_with_its_interval(self):
        book = run_of((0.1, None), (0.5, SIGNIFICANT), (0.4, DROP), (0.45, NOT_SIGNIFICANT))
        best = book.best()
        self.assertEqual(("c1", 10, 0.5), (best["checkpointId"], best["trainingStep"], best["primaryRate"]))
        self.assertAlmostEqual(0.4, best["primaryCiLow"])
        self.assertAlmostEqual(0.6, best["primaryCiHigh"])

    def test_the_earliest_of_equals_whatever_the_order_of_arrival(self):
        book = Checkpoints()
        book.update(verdict("late", 30, 0.5))
        book.update(verdict("early", 20, 0.5))
        book.update(verdict("first", 10, 0.2))
        self.assertEqual("early", book.best()["checkpointId"])

    def test_a_timed_out_checkpoint_is_never_the_best(self):
        book = Checkpoints()
        book.update(verdict("c0", 0, 0.3))
        book.update(verdict("c1", 10, 0.9, status="timed_out"))
        self.assertEqual("c0", book.best()["checkpointId"])

    def test_nothing_before_the_first_complete_verdict(self):
        book = Checkpoints()
        self.assertIsNone(book.best())
        book.update(verdict("c0", 0, None))
        self.assertIsNone(book.best())

    def test_a_rewritten_answer_replaces_the_earlier_one(self):
        book = Checkpoints()
        book.update(verdict("c0", 0, 0.3))
        book.update(verdict("c1", 10, 0.6))
        book.update(verdict("c1", 10, 0.2, updated="t2"))  # a re-score lowered it
        self.assertEqual("c0", book.best()["checkpointId"])

    def test_one_task(self):
        book = Checkpoints()
        book.update(verdict("c0", 0, 0.5, tasks=[task_status("maze", 0.9), task_status("mind2web", 0.1)]))
        book.update(verdict("c1", 10, 0.6, tasks=[task_status("maze", 0.3), task_status("mind2web", 0.9)]))
        self.assertEqual("c0", book.best("maze")["checkpointId"])
        self.assertEqual("c1", book.best("mind2web")["checkpointId"])
        self.assertIsNone(book.best("vwb-webqa"))


class ShouldStop(unittest.TestCase):

    def test_counts_checkpoints_since_the_last_significant_improvement(self):
        book = run_of((0.1, None), (0.5, SIGNIFICANT), (0.52, NOT_SIGNIFICANT), (0.3, DROP))
        self.assertEqual(["c2", "c3"], book.since_improvement())
        self.assertFalse(book.should_stop(3))
        self.assertTrue(book.should_stop(2))

    def test_a_significant_improvement_starts_the_count_again(self):
        book = run_of((0.1, None), (0.12, NOT_SIGNIFICANT), (0.13, NOT_SIGNIFICANT), (0.6, SIGNIFICANT),
                      (0.61, NOT_SIGNIFICANT))
        self.assertEqual(["c4"], book.since_improvement())
        self.assertFalse(book.should_stop(2))

    def test_a_higher_rate_without_significance_does_not_count_as_an_improvement(self):
        book = run_of((0.1, None), (0.15, NOT_SIGNIFICANT), (0.2, NOT_SIGNIFICANT))
        self.assertEqual("c2", book.best()["checkpointId"])
        self.assertTrue(book.should_stop(2))

    def test_min_difference_raises_the_bar(self):
        book = run_of((0.1, None), (0.5, SIGNIFICANT))
        self.assertEqual([], book.since_improvement())
        self.assertEqual(["c1"], book.since_improvement(min_difference=0.15))

    def test_an_unanswered_checkpoint_holds_the_count_until_its_verdict(self):
        book = run_of((0.1, None), (0.5, SIGNIFICANT))
        book.expect("c2", 20)
        # the scorer answered c3 and c4 first: nothing is known of the run at c2 yet
        book.update(verdict("c3", 30, 0.4, vs_previous=comparison("c2", 0.0, -0.1, 0.1),
                            vs_best=comparison("c1", *NOT_SIGNIFICANT)))
        book.update(verdict("c4", 40, 0.4, vs_previous=comparison("c3", 0.0, -0.1, 0.1),
                            vs_best=comparison("c1", *NOT_SIGNIFICANT)))
        self.assertEqual(["c2"], book.pending())
        self.assertEqual([], book.since_improvement())
        book.update(verdict("c2", 20, 0.45, vs_previous=comparison("c1", *NOT_SIGNIFICANT)))
        self.assertEqual([], book.pending())
        self.assertEqual(["c2", "c3", "c4"], book.since_improvement())
        self.assertTrue(book.should_stop(3))

    def test_a_checkpoint_marked_done_again_waits_for_its_new_answer(self):
        book = run_of((0.1, None), (0.2, NOT_SIGNIFICANT), (0.2, NOT_SIGNIFICANT))
        self.assertTrue(book.should_stop(2))
        book.expect("c1", 10)
        self.assertEqual([], book.since_improvement())
        self.assertEqual("c1", book.best()["checkpointId"])  # its last answer stands for the best meanwhile

    def test_timed_out_checkpoints_neither_count_nor_reset(self):
        book = run_of((0.1, None), (0.5, SIGNIFICANT), (0.5, NOT_SIGNIFICANT))
        book.update(verdict("c3", 30, 0.9, status="timed_out", vs_best=comparison("c1", *SIGNIFICANT)))
        book.update(verdict("c4", 40, 0.5, vs_best=comparison("c1", *NOT_SIGNIFICANT)))
        self.assertEqual(["c2", "c4"], book.since_improvement())

    def test_patience_must_be_positive(self):
        with self.assertRaises(ValueError):
            Checkpoints().should_stop(0)


if __name__ == "__main__":
    unittest.main()
