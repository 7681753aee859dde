package io.mmgr.stream.tasks.sudoku;

import java.awt.Font;
import java.awt.FontFormatException;
import java.awt.GraphicsEnvironment;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * The faces the OCR fixtures draw digits in: the DejaVu families installed on this machine, the JDK's
 * logical fonts, Liberation Sans, Serif and Mono (from a test dependency, so they are there on every
 * machine), in plain, bold and italic; and the families of the Debian font packages .ci/run installs
 * ({@link #SYSTEM_PACKAGES}: URW's Nimbus, Century Schoolbook, Palatino, Bookman and Gothic clones, GNU
 * FreeFont, Roboto's weights from Thin to Black, Open Sans, Noto Sans and Serif), found at run time.
 */
final class FixtureFonts {

    record Face(String name, Font font) {
        @Override
        public String toString() {
            return name;
        }
    }

    private static final List<String> SYSTEM_FAMILIES = List.of(
            "DejaVu Sans", "DejaVu Serif", "DejaVu Sans Mono", "DejaVu Sans Condensed", "DejaVu Serif Condensed",
            "DejaVu Sans Light", "DejaVu Math TeX Gyre");
    private static final List<String> LOGICAL = List.of(
            Font.SERIF, Font.SANS_SERIF, Font.MONOSPACED, Font.DIALOG, Font.DIALOG_INPUT);
    private static final List<String> LIBERATION = List.of(
            "LiberationSans-Regular", "LiberationSans-Bold", "LiberationSans-Italic", "LiberationSans-BoldItalic",
            "LiberationSerif-Regular", "LiberationSerif-Bold", "LiberationSerif-Italic", "LiberationSerif-BoldItalic",
            "LiberationMono-Regular", "LiberationMono-Bold", "LiberationMono-Italic", "LiberationMono-BoldItalic");

    /** The Debian packages that bring the families {@link #system} asks for. */
    static final String SYSTEM_PACKAGES = "fonts-urw-base35 fonts-freefont-ttf fonts-roboto-unhinted fonts-open-sans fonts-noto-core";

    private static List<Face> all;
    private static Set<String> installed;

    private FixtureFonts() {
    }

    /** Every face, system ones only where installed. */
    static synchronized List<Face> all() {
        if (all == null) {
            Set<String> installed = installed();
            List<Face> faces = new ArrayList<>();
            for (String family : SYSTEM_FAMILIES) {
                if (installed.contains(family)) {
                    faces.add(new Face(family, new Font(family, Font.PLAIN, 12)));
                    faces.add(new Face(family + " Bold", new Font(family, Font.BOLD, 12)));
                    faces.add(new Face(family + " Italic", new Font(family, Font.ITALIC, 12)));
                }
            }
            for (String logical : LOGICAL) {
                faces.add(new Face(logical, new Font(logical, Font.PLAIN, 12)));
                faces.add(new Face(logical + " Bold", new Font(logical, Font.BOLD, 12)));
            }
            for (String name : LIBERATION) {
                faces.add(new Face(name, liberation(name)));
            }
            all = List.copyOf(faces);
        }
        return all;
    }

    private static synchronized Set<String> installed() {
        if (installed == null) {
            installed = Arrays.stream(GraphicsEnvironment.getLocalGraphicsEnvironment().getAvailableFontFamilyNames())
                    .collect(Collectors.toSet());
        }
        return installed;
    }

    /**
     * A family from the system's fonts in a style ({@link Font#PLAIN}, {@link Font#BOLD}, ...). Missing,
     * it fails the test in CI, where .ci/run installs {@link #SYSTEM_PACKAGES}, and skips it elsewhere.
     */
    static Face system(String family, int style) {
        io.mmgr.stream.it.SystemPackages.require(installed().contains(family), "font family '" + family
                + "' is not installed; apt-get install " + SYSTEM_PACKAGES, "mmgr.fonts.required");
        String suffix = style == Font.BOLD ? " Bold" : style == Font.ITALIC ? " Italic"
                : style == (Font.BOLD | Font.ITALIC) ? " Bold Italic" : "";
        return new Face(family + suffix, new Font(family, style, 12));
    }

    static Face named(String name) {
        return all().stream().filter(f -> f.name().equals(name)).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("no fixture face " + name));
    }

    private static Font liberation(String name) {
        try (InputStream in = FixtureFonts.class.getResourceAsStream("/liberation/" + name + ".ttf")) {
            if (in == null) {
                throw new IllegalStateException("Liberation font " + name + " missing: is openpdf-fonts-extra on the test class path?");
            }
            return Font.createFont(Font.TRUETYPE_FONT, in).deriveFont(12f);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (FontFormatException e) {
            throw new IllegalStateException(e);
        }
    }
}
