package io.mmgr.stream.tasks.maze;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** Marker roles as benchmarks name them: colour names, #rrggbb, MMGR's default, and clear refusals. */
@Tag("unit")
class MarkerRolesTest {

    @Test
    void noRolesIsMmgrsConventionWithTheAgentToBeFound() {
        assertThat(MarkerRoles.parse(null)).isEqualTo(MarkerRoles.MMGR);
        assertThat(MarkerRoles.of(Map.of())).isEqualTo(MarkerRoles.MMGR);
        assertThat(MarkerRoles.MMGR.agent()).isEqualTo(MazePalette.GREEN);
        assertThat(MarkerRoles.MMGR.agentIsStart()).isTrue();
        assertThat(MarkerRoles.MMGR.target()).isEqualTo(MazePalette.RED);
        assertThat(MarkerRoles.MMGR.agentGiven()).isFalse();
    }

    @Test
    void namesAndHexColoursMapToThePalettesClasses() {
        MarkerRoles r = MarkerRoles.parse("agent=blue, start=green ,target=red");
        assertThat(r).isEqualTo(new MarkerRoles(MazePalette.BLUE, MazePalette.GREEN, MazePalette.RED, true));
        assertThat(r.agentIsStart()).isFalse();
        MarkerRoles hex = MarkerRoles.of(Map.of("agent", "#1f77b4", "start", "#2ca02c", "target", "#d62728"));
        assertThat(hex).isEqualTo(r);
        assertThat(MarkerRoles.parse("agent=purple,start=orange,target=yellow"))
                .isEqualTo(new MarkerRoles(MazePalette.PURPLE, MazePalette.ORANGE, MazePalette.YELLOW, true));
        // a start named apart from the agent, the agent not named: the start's colour is not the first guess
        MarkerRoles startOnly = MarkerRoles.parse("start=orange");
        assertThat(startOnly.agentGiven()).isFalse();
        assertThat(startOnly.start()).isEqualTo(MazePalette.ORANGE);
    }

    @Test
    void blackByNameOrNearBlackHexIsTheBlackMarker() {
        MarkerRoles agent = MarkerRoles.parse("agent=black,start=green,target=red");
        assertThat(agent.agent()).isEqualTo(MazePalette.BLACK);
        assertThat(agent.agentGiven()).isTrue();
        // dark hex near black, whatever its tint, is black; a dark grey above the cut is still refused
        assertThat(MarkerRoles.parse("target=#1a1a2e").target()).isEqualTo(MazePalette.BLACK);
        assertThat(MarkerRoles.parse("target=#003300").target()).isEqualTo(MazePalette.BLACK);
        assertThatThrownBy(() -> MarkerRoles.parse("target=#606060")).hasMessageContaining("too grey");
        // MMGR's convention with a black agent that is its own start
        MarkerRoles own = MarkerRoles.parse("agent=black,start=black");
        assertThat(own.agentIsStart()).isTrue();
        assertThat(own.target()).isEqualTo(MazePalette.RED);
        assertThat(MarkerRoles.name(MazePalette.BLACK)).isEqualTo("black");
    }

    @Test
    void coloursThatCannotBeToldApartAreRefusedWithTheReason() {
        assertThatThrownBy(() -> MarkerRoles.parse("agent=white")).hasMessageContaining("agent 'white' cannot be told apart");
        assertThatThrownBy(() -> MarkerRoles.parse("start=grey")).hasMessageContaining("start 'grey' cannot be told apart");
        assertThatThrownBy(() -> MarkerRoles.parse("agent=black,target=#000000")).hasMessageContaining("target's colour must differ");
        assertThatThrownBy(() -> MarkerRoles.parse("target=#808080")).hasMessageContaining("too grey");
        assertThatThrownBy(() -> MarkerRoles.parse("target=teal")).hasMessageContaining("is not a colour");
        assertThatThrownBy(() -> MarkerRoles.parse("goal=red")).hasMessageContaining("unknown role 'goal'");
        assertThatThrownBy(() -> MarkerRoles.parse("agent blue")).hasMessageContaining("is not role=colour");
        assertThatThrownBy(() -> MarkerRoles.parse("agent=red")).hasMessageContaining("target's colour must differ");
    }
}
