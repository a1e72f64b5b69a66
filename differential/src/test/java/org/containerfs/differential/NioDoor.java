package org.containerfs.differential;

import org.containerfs.core.ContainerFileSystems;

/** The reference: the container file opened by the provider (format detected), walked through java.nio. */
final class NioDoor implements Door {
    @Override
    public String name() {
        return "nio";
    }

    @Override
    public Answer answer(Input input) throws Exception {
        return NioWalk.openAndWalk(() -> ContainerFileSystems.open(input.file()));
    }
}
