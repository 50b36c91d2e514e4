"""The pack library: the model packs on this machine and the catalog of packs to get; no Qt, no ONNX Runtime,
no export tools.

"Pack" names three things, each with a home of its own: the *pack format*, what a pack is on disk
(fanyi.engine.pack, ModelPack); the *library*, this package: the packs on a user's computer and how they get
there; and the *release*, which builds, scores and publishes packs and their catalog (packaging/release).

``installed`` lists, finds, imports and removes installed packs; ``unpack`` puts a folder or .zip into
the user packs folder, all or nothing; ``catalog`` reads the catalog of recipes and ``catalog_fetch``
refreshes it; ``from_source`` makes a pack from the model's own files, which ``sources`` download from
where their authors publish them; ``download`` is one resumable, verified transfer; ``install`` installs
and updates packs from the catalog; ``memory`` estimates what a pack needs; ``diskspace`` checks free
space; ``errors`` holds what they raise.
"""
