"""Model packs on this machine and from the catalog; no Qt, no ONNX Runtime, no export tools.

``library`` lists, finds, imports and removes installed packs; ``unpack`` puts a folder or .zip into
the user packs folder, all or nothing; ``catalog`` reads the list of published packs and
``catalog_fetch`` refreshes it; ``download`` is one resumable, verified transfer; ``install``
installs and updates packs from the catalog; ``diskspace`` checks free space; ``errors`` holds
what they raise.
"""
