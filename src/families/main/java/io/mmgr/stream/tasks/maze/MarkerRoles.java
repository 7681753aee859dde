package io.mmgr.stream.tasks.maze;

import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * Which marker colour plays which role in a maze output: the agent that walks, the start it sets off
 * from and the target it must reach, each one of the palette's colour classes ({@link MazePalette}).
 * MMGR's convention is the default: a green agent that is its own start marker, a red target (its
 * solution images draw the path blue). A benchmark may name others per item (maze-dataset's plots, as
 * MiniVeo3-Reasoner draws them: a green start disc that stays put, a blue star that walks, a red flag
 * target). Where the agent is not named, it is the marker that moves ({@link #agentGiven()} false).
 * Markers may be any shape: only their colour says which they are. A black marker is told apart from
 * the black walls by where it stands: dark pixels where the maze's structure has no wall
 * ({@link BlackMarker}).
 *
 * @param agent      colour class of the agent
 * @param start      colour class of the start marker (the agent's own colour in MMGR's convention)
 * @param target     colour class of the target marker
 * @param agentGiven whether the agent's colour was named (else the video picks the marker that moves)
 */
public record MarkerRoles(int agent, int start, int target, boolean agentGiven) {

    /** MMGR's convention (C.5.3: "the green agent marker is tracked across frames"). */
    public static final MarkerRoles MMGR = new MarkerRoles(MazePalette.GREEN, MazePalette.GREEN, MazePalette.RED, false);

    /** The names a role's colour may be given by, besides {@code #rrggbb}. */
    private static final Map<String, Integer> NAMES = Map.of("red", MazePalette.RED, "green", MazePalette.GREEN,
            "blue", MazePalette.BLUE, "yellow", MazePalette.YELLOW, "orange", MazePalette.ORANGE,
            "purple", MazePalette.PURPLE, "black", MazePalette.BLACK);

    public MarkerRoles {
        if (start == target || (agent == target)) {
            throw new IllegalArgumentException("maze markers: the target's colour must differ from the agent's and the start's");
        }
    }

    /**
     * Roles from {@code agent=blue,start=green,target=red} (any order, any subset; the rest keep MMGR's
     * convention); null or blank gives {@link #MMGR}.
     */
    public static MarkerRoles parse(String spec) {
        return of(split(spec));
    }

    /** {@code agent=blue,start=green} as a map of role to colour (empty for null or blank). */
    public static Map<String, String> split(String spec) {
        Map<String, String> roles = new LinkedHashMap<>();
        if (spec == null || spec.isBlank()) {
            return roles;
        }
        for (String part : spec.split(",")) {
            int eq = part.indexOf('=');
            if (eq < 0) {
                throw new IllegalArgumentException("maze markers: '" + part.trim() + "' is not role=colour"
                        + " (e.g. agent=blue,start=green,target=red)");
            }
            roles.put(part.substring(0, eq).trim(), part.substring(eq + 1).trim());
        }
        return roles;
    }

    /** Roles from a map of role to colour (the item's {@code markers}); null or empty gives {@link #MMGR}. */
    public static MarkerRoles of(Map<String, String> roles) {
        if (roles == null || roles.isEmpty()) {
            return MMGR;
        }
        Integer agent = null;
        int start = MMGR.start;
        int target = MMGR.target;
        for (Map.Entry<String, String> e : roles.entrySet()) {
            int colour = colour(e.getKey(), e.getValue());
            switch (e.getKey().toLowerCase(Locale.ROOT)) {
                case "agent" -> agent = colour;
                case "start" -> start = colour;
                case "target" -> target = colour;
                default -> throw new IllegalArgumentException("maze markers: unknown role '" + e.getKey()
                        + "' (agent, start, target)");
            }
        }
        // a start named apart from the agent, with no agent named: the agent is still the marker that moves,
        // and MMGR's green is its first guess only if the start is not green itself
        int firstGuess = agent != null ? agent : start != MazePalette.GREEN ? start : MMGR.agent;
        return new MarkerRoles(firstGuess, start, target, agent != null);
    }

    /** A colour name or {@code #rrggbb} as the palette's colour class. */
    static int colour(String role, String value) {
        String v = value == null ? "" : value.trim().toLowerCase(Locale.ROOT);
        Integer named = NAMES.get(v);
        if (named != null) {
            return named;
        }
        if (v.equals("white") || v.equals("grey") || v.equals("gray")) {
            throw new IllegalArgumentException("maze markers: " + role + " '" + value + "' cannot be told apart from the"
                    + " maze's passages and wall edges; use a coloured or black marker");
        }
        if (v.matches("#[0-9a-f]{6}")) {
            int rgb = Integer.parseInt(v.substring(1), 16);
            int r = (rgb >> 16) & 0xFF;
            int g = (rgb >> 8) & 0xFF;
            int b = rgb & 0xFF;
            if (Math.max(r, Math.max(g, b)) < MazePalette.DARK_VALUE) {
                // near black, whatever its tint: the pixels read as wall class, as the walls' do
                return MazePalette.BLACK;
            }
            int code = MazePalette.code(r, g, b);
            int cls = code < MazePalette.GREY_CODES ? -1 : MazePalette.classes(MazePalette.GREY_CODES - 1)[code];
            if (cls < MazePalette.GREEN || cls >= MazePalette.LABELS) {
                throw new IllegalArgumentException("maze markers: " + role + " '" + value + "' is too grey (or a hue"
                        + " between the palette's bands) to be told apart from the maze by colour");
            }
            return cls;
        }
        throw new IllegalArgumentException("maze markers: " + role + " '" + value + "' is not a colour (red, green,"
                + " blue, yellow, orange, purple, black or #rrggbb)");
    }

    /** Whether the agent is its own start marker (MMGR: the green square sets off from the start). */
    public boolean agentIsStart() {
        return agent == start;
    }

    /** These roles with another agent colour (the marker a video showed moving). */
    MarkerRoles withAgent(int colour) {
        return new MarkerRoles(colour, start, target, agentGiven);
    }

    /** A colour class by name, for messages. */
    static String name(int colour) {
        return NAMES.entrySet().stream().filter(e -> e.getValue() == colour).map(Map.Entry::getKey).findFirst()
                .orElse("class " + colour);
    }
}
