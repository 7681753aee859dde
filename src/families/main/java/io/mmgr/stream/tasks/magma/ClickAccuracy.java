package io.mmgr.stream.tasks.magma;

import java.util.List;
import java.util.Locale;

/**
 * ScreenSpot click accuracy: a click is correct when the predicted point lies in the target box
 * (edges inclusive); accuracy is reported overall and per element kind (text / icon).
 */
public final class ClickAccuracy {

    private ClickAccuracy() {
    }

    /** ScreenSpot's {@code data_type} of the target element. */
    public enum Kind {
        TEXT, ICON;

        public static Kind parse(String s) {
            if (s != null) {
                switch (s.trim().toLowerCase(Locale.ROOT)) {
                    case "text": return TEXT;
                    case "icon": return ICON;
                    default: break;
                }
            }
            throw new IllegalArgumentException("element kind must be text or icon, got " + (s == null ? "nothing" : "'" + s + "'"));
        }

        public String label() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    /** One scored click. */
    public record Click(Kind kind, boolean correct) {
    }

    /** Counts overall and per kind; an accuracy over no clicks is null. */
    public record Summary(int clicks, int correct, int textClicks, int textCorrect, int iconClicks, int iconCorrect) {
        public Double accuracy() {
            return ratio(correct, clicks);
        }

        public Double textAccuracy() {
            return ratio(textCorrect, textClicks);
        }

        public Double iconAccuracy() {
            return ratio(iconCorrect, iconClicks);
        }

        private static Double ratio(int num, int den) {
            return den == 0 ? null : num / (double) den;
        }
    }

    public static boolean correct(Point click, Box target) {
        return target.contains(click);
    }

    public static Click score(Point click, Box target, Kind kind) {
        return new Click(kind, correct(click, target));
    }

    public static Summary summarize(List<Click> clicks) {
        int correct = 0;
        int text = 0;
        int textOk = 0;
        int icon = 0;
        int iconOk = 0;
        for (Click c : clicks) {
            correct += c.correct() ? 1 : 0;
            if (c.kind() == Kind.TEXT) {
                text++;
                textOk += c.correct() ? 1 : 0;
            } else {
                icon++;
                iconOk += c.correct() ? 1 : 0;
            }
        }
        return new Summary(clicks.size(), correct, text, textOk, icon, iconOk);
    }
}
