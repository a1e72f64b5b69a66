package org.containerfs.differential;

import java.util.EnumSet;
import java.util.Set;
import org.containerfs.core.ContainerFileSystems;

/** The reference: the container file opened by the provider (format detected), walked through java.nio. */
final class NioDoor implements Door {
    @Override
    public String name() {
        return "nio";
    }

    @Override
    public Set<Aspect> aspects() {
        return EnumSet.allOf(Aspect.class);
    }

    @Override
    public Answer answer(Input input) throws Exception {
        return NioWalk.openAndWalk(() -> ContainerFileSystems.open(input.file()));
    }
}
