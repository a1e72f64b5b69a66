package org.containerfs.differential;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.containerfs.core.ContainerFileSystems;
import org.containerfs.ensemble.EnsembleFileSystem;

/**
 * The tree of many (docs/ensemble.md): the inputs' root opened once as one tree, every input the
 * directory its file shows, walked below it. A file the tree cannot show as a container (no format
 * claims its bytes, or its open fails) shows as a plain file: that is this door's refusal to open it.
 */
final class EnsembleDoor implements Door {
    private final EnsembleFileSystem tree;

    EnsembleDoor(Path inputsRoot) throws Exception {
        // a small cache, so the walk also proves that closing and reopening containers changes no answer; every
        // input is a candidate container (the corpus has LIME files named conf.00200 and conf.tmlqcd, which a
        // user of such an ensemble names with containerNames, as this does for all)
        tree = ContainerFileSystems.openTree(inputsRoot, Map.of("cacheContainers", "8", "containerNames", ".+"));
    }

    @Override
    public String name() {
        return "ensemble";
    }

    @Override
    public Answer answer(Input input) throws Exception {
        Path shown = tree.getPath("/" + input.relative());
        try {
            if (!Files.isDirectory(shown)) {
                return Answer.refusedToOpen();
            }
            return NioWalk.walkBelow(shown);
        } catch (java.io.IOException | java.nio.file.DirectoryIteratorException refused) {
            return Answer.refusedToOpen();
        }
    }

    @Override
    public void close() throws Exception {
        tree.close();
    }
}
