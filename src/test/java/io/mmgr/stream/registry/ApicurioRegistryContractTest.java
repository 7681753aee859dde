package io.mmgr.stream.registry;

import io.mmgr.stream.bench.cluster.ApicurioProcess;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;

/**
 * The registry contract against Apicurio Registry's Confluent-compatible API, a third-party
 * implementation: proves the client and serdes are not tailored to our own server.
 */
@Tag("integration")
class ApicurioRegistryContractTest extends RegistryContractTest {

    private static ApicurioProcess apicurio;

    @BeforeAll
    static void startApicurio() throws Exception {
        apicurio = ApicurioProcess.start();
    }

    @AfterAll
    static void stopApicurio() throws InterruptedException {
        if (apicurio != null) {
            apicurio.close();
        }
    }

    @Override
    String registryUrl() {
        return apicurio.ccompatUrl();
    }
}
