package io.mmgr.stream.tasks.magma;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * AndroidInTheWild action matching, our own implementation of the rules in google-research
 * {@code android_in_the_wild/action_matching.py} ({@code check_actions_match}) and its README:
 * <ul>
 *   <li>if either action is not {@code DUAL_POINT}, the actions match when their types are equal —
 *       for {@code TYPE} too: the reference does not compare the typed text (later agent papers,
 *       e.g. SeeClick, add a text check; we do not);</li>
 *   <li>a dual-point action is a tap when touch and lift are at most 0.04 apart (normalized
 *       Euclidean distance), otherwise a swipe; a tap never matches a swipe;</li>
 *   <li>two taps match when some screen annotation box, enlarged by 1.4x its size, holds both touch
 *       points, or when the touch points are at most 0.14 apart;</li>
 *   <li>two swipes match when their main axis (the larger of |dy|, |dx|; a tie counts as vertical,
 *       like {@code np.argmax} on {@code (y, x)}) is the same — the reference compares the axis
 *       only, not the direction along it.</li>
 * </ul>
 * Points are {@code [x, y]} normalized to [0, 1] (the reference works in {@code (y, x)}); boxes are
 * AITW's {@code (y, x, height, width)}. The enlargement reproduces the reference exactly, including
 * its clamping: the top-left corner is moved out by 0.7x the size and clamped at 0, and the size
 * grows by 1.4x and is capped at 1 (so a box clamped at the screen edge keeps its full grown size).
 * We compute in double precision where the reference's JAX code defaults to float32; the two can
 * differ only for points within ~1e-7 of a threshold.
 */
public final class AitwActionMatching {

    public static final String DUAL_POINT = "DUAL_POINT";
    /** AITW's action types ({@code android_in_the_wild/action_type.py}). */
    public static final Set<String> ACTION_TYPES = Set.of("TYPE", DUAL_POINT, "PRESS_BACK", "PRESS_HOME",
            "PRESS_ENTER", "STATUS_TASK_COMPLETE", "STATUS_TASK_IMPOSSIBLE");

    private AitwActionMatching() {
    }

    /**
     * One action. The type is upper-cased; a {@code DUAL_POINT} needs its touch point, and a missing
     * lift point means the finger lifted where it touched (a tap). Points of other types are ignored.
     */
    public record Action(String type, Point touch, Point lift) {
        public Action {
            if (type == null || type.isBlank()) {
                throw new IllegalArgumentException("an AITW action needs an op (action type)");
            }
            type = type.trim().toUpperCase(Locale.ROOT);
            if (DUAL_POINT.equals(type)) {
                if (touch == null) {
                    throw new IllegalArgumentException("a DUAL_POINT action needs its touch point");
                }
                if (lift == null) {
                    lift = touch;
                }
            }
        }

        public boolean isDualPoint() {
            return DUAL_POINT.equals(type);
        }

        /**
         * Checks that a dual-point action's points lie in [0, 1]: AITW points are normalized to the
         * screen, so a coordinate beyond is a unit mix-up (pixels), not a miss to be scored.
         */
        public Action requireNormalized() {
            if (isDualPoint()) {
                checkNormalized(touch, "point");
                checkNormalized(lift, "liftPoint");
            }
            return this;
        }

        private static void checkNormalized(Point p, String name) {
            if (p.x() < 0 || p.x() > 1 || p.y() < 0 || p.y() > 1) {
                throw new IllegalArgumentException(name + " [" + p.x() + ", " + p.y()
                        + "] is outside [0, 1]: AITW points are normalized to the screen size");
            }
        }

        public boolean isTap() {
            return isDualPoint() && AitwActionMatching.isTap(touch, lift);
        }
    }

    /** A screen annotation box in AITW's {@code (y, x, height, width)} layout, normalized. */
    public record ScreenBox(double top, double left, double height, double width) {
        public ScreenBox {
            if (!Double.isFinite(top) || !Double.isFinite(left) || !Double.isFinite(height) || !Double.isFinite(width)) {
                throw new IllegalArgumentException("screen box values must be finite numbers");
            }
            if (height < 0 || width < 0) {
                throw new IllegalArgumentException("screen box height and width must not be negative");
            }
        }

        public static ScreenBox of(List<? extends Number> yxhw) {
            if (yxhw == null || yxhw.size() != 4 || yxhw.stream().anyMatch(java.util.Objects::isNull)) {
                throw new IllegalArgumentException("a screen box must be [y, x, height, width]");
            }
            return new ScreenBox(yxhw.get(0).doubleValue(), yxhw.get(1).doubleValue(),
                    yxhw.get(2).doubleValue(), yxhw.get(3).doubleValue());
        }

        /** The box as the reference's {@code _resize_annotation_bounding_boxes} grows it. */
        public ScreenBox enlarged() {
            double heightChange = MagmaThresholds.ANNOTATION_AUGMENT_FRACTION * height;
            double widthChange = MagmaThresholds.ANNOTATION_AUGMENT_FRACTION * width;
            return new ScreenBox(
                    Math.max(0, top - heightChange / 2),
                    Math.max(0, left - widthChange / 2),
                    Math.min(1, height + heightChange),
                    Math.min(1, width + widthChange));
        }

        /** Edges inclusive, as {@code _yx_in_bounding_boxes}. */
        public boolean contains(Point p) {
            return p.y() >= top && p.y() <= top + height && p.x() >= left && p.x() <= left + width;
        }
    }

    /** A gold step: the action (one of AITW's types) and the annotation boxes of its screen. */
    public record GoldStep(Action action, List<ScreenBox> screenBoxes) {
        public GoldStep {
            if (!ACTION_TYPES.contains(action.type())) {
                throw new IllegalArgumentException("op '" + action.type() + "' is not an AITW action type "
                        + new java.util.TreeSet<>(ACTION_TYPES));
            }
            screenBoxes = screenBoxes == null ? List.of() : List.copyOf(screenBoxes);
        }
    }

    /** One episode: whether each gold step was matched, plus how many steps the prediction had. */
    public record EpisodeResult(List<Boolean> matched, int predictedSteps) {
        public EpisodeResult {
            matched = List.copyOf(matched);
            if (matched.isEmpty()) {
                throw new IllegalArgumentException("an episode needs at least one gold step");
            }
        }

        public int matchedSteps() {
            return (int) matched.stream().filter(Boolean::booleanValue).count();
        }

        /** Fraction of gold steps matched (AITW's action matching accuracy; Magma's step SR). */
        public double accuracy() {
            return matchedSteps() / (double) matched.size();
        }

        public boolean taskSuccess() {
            return matched.stream().allMatch(Boolean::booleanValue);
        }
    }

    /**
     * Across episodes: matched steps over all steps, pooled (micro), as SeeClick's
     * {@code agent_tasks/aitw_test.py} computes AITW's action accuracy ({@code corr_action / num});
     * papers then average that over AITW's five subsets, which is done by scoring each subset apart.
     */
    public record Summary(int episodes, int steps, int matchedSteps, int successfulEpisodes) {
        public double actionMatchAccuracy() {
            return matchedSteps / (double) steps;
        }

        public double taskSuccessRate() {
            return successfulEpisodes / (double) episodes;
        }
    }

    /** {@code is_tap_action}: touch and lift at most 0.04 apart. */
    public static boolean isTap(Point touch, Point lift) {
        return touch.distanceTo(lift) <= MagmaThresholds.SWIPE_DISTANCE_THRESHOLD;
    }

    /** {@code check_actions_match}; symmetric in its two actions. */
    public static boolean matches(Action a, Action b, List<ScreenBox> screenBoxes) {
        if (!a.isDualPoint() || !b.isDualPoint()) {
            return a.type().equals(b.type());
        }
        boolean aTap = a.isTap();
        boolean bTap = b.isTap();
        if (aTap != bTap) {
            return false;
        }
        if (aTap) {
            return tapsMatch(a.touch(), b.touch(), screenBoxes);
        }
        return mainAxisIsVertical(a) == mainAxisIsVertical(b);
    }

    /** Both touches in one enlarged box, or within 0.14 of each other. */
    public static boolean tapsMatch(Point a, Point b, List<ScreenBox> screenBoxes) {
        for (ScreenBox box : screenBoxes) {
            ScreenBox grown = box.enlarged();
            if (grown.contains(a) && grown.contains(b)) {
                return true;
            }
        }
        return a.distanceTo(b) <= MagmaThresholds.TAP_DISTANCE_THRESHOLD;
    }

    /** {@code np.argmax(|(dy, dx)|) == 0}: the first maximum wins, so a tie is vertical. */
    static boolean mainAxisIsVertical(Action swipe) {
        double dy = Math.abs(swipe.lift().y() - swipe.touch().y());
        double dx = Math.abs(swipe.lift().x() - swipe.touch().x());
        return dy >= dx;
    }

    /**
     * Scores an episode position by position: a gold step without a prediction (or with a null one)
     * is not matched; predicted steps beyond the gold ones are not scored.
     */
    public static EpisodeResult scoreEpisode(List<Action> predictions, List<GoldStep> gold) {
        if (gold.isEmpty()) {
            throw new IllegalArgumentException("an episode needs at least one gold step");
        }
        List<Boolean> matched = new ArrayList<>(gold.size());
        for (int i = 0; i < gold.size(); i++) {
            Action p = i < predictions.size() ? predictions.get(i) : null;
            GoldStep g = gold.get(i);
            matched.add(p != null && matches(p, g.action(), g.screenBoxes()));
        }
        return new EpisodeResult(matched, predictions.size());
    }

    public static Summary summarize(List<EpisodeResult> episodes) {
        if (episodes.isEmpty()) {
            throw new IllegalArgumentException("no episodes to summarize");
        }
        int steps = 0;
        int matched = 0;
        int ok = 0;
        for (EpisodeResult e : episodes) {
            steps += e.matched().size();
            matched += e.matchedSteps();
            ok += e.taskSuccess() ? 1 : 0;
        }
        return new Summary(episodes.size(), steps, matched, ok);
    }
}
