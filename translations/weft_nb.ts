<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="nb_NO" sourcelanguage="en">
<context>
    <name>DemoFabric</name>
    <message>
        <location filename="../app/DemoFabric.cpp" line="34" />
        <source>Demo fabric (%1-level fat-tree, %2 hosts)</source>
        <translation>Demofabric (fat-tree med %1 nivåer, %2 verter)</translation>
    </message>
</context>
<context>
    <name>weft::FabricScene</name>
    <message>
        <location filename="../views/FabricScene.cpp" line="276" />
        <source>Switch</source>
        <translation>Svitsj</translation>
    </message>
    <message>
        <location filename="../views/FabricScene.cpp" line="279" />
        <source>Host</source>
        <translation>Vert</translation>
    </message>
    <message>
        <location filename="../views/FabricScene.cpp" line="282" />
        <source>Router</source>
        <translation>Ruter</translation>
    </message>
    <message>
        <location filename="../views/FabricScene.cpp" line="291" />
        <source>&lt;b&gt;%1&lt;/b&gt; (%2)&lt;br&gt;GUID %3&lt;br&gt;LID %4&lt;br&gt;%5 ports, %6 cabled&lt;br&gt;Tier %7</source>
        <translation>&lt;b&gt;%1&lt;/b&gt; (%2)&lt;br&gt;GUID %3&lt;br&gt;LID %4&lt;br&gt;%5 porter, %6 kablet&lt;br&gt;Nivå %7</translation>
    </message>
    <message>
        <location filename="../views/FabricScene.cpp" line="292" />
        <source>none</source>
        <translation>ingen</translation>
    </message>
    <message>
        <location filename="../views/FabricScene.cpp" line="295" />
        <source>none (no path to a host)</source>
        <translation>ingen (ingen vei til en vert)</translation>
    </message>
    <message>
        <location filename="../views/FabricScene.cpp" line="312" />
        <source>Hosts under %1: %2</source>
        <translation>Verter under %1: %2</translation>
    </message>
</context>
<context>
    <name>weft::FabricView</name>
    <message>
        <location filename="../views/FabricView.cpp" line="193" />
        <source>Hosts</source>
        <translation>Verter</translation>
    </message>
    <message>
        <location filename="../views/FabricView.cpp" line="195" />
        <source>Leaves</source>
        <translation>Løvsvitsjer</translation>
    </message>
    <message>
        <location filename="../views/FabricView.cpp" line="197" />
        <source>Roots</source>
        <translation>Rotsvitsjer</translation>
    </message>
    <message>
        <location filename="../views/FabricView.cpp" line="199" />
        <source>Tier %1</source>
        <translation>Nivå %1</translation>
    </message>
    <message>
        <location filename="../views/FabricView.cpp" line="200" />
        <source>%1 · %2</source>
        <translation>%1 · %2</translation>
    </message>
    <message>
        <location filename="../views/FabricView.cpp" line="219" />
        <source>Root switch</source>
        <translation>Rotsvitsj</translation>
    </message>
    <message>
        <location filename="../views/FabricView.cpp" line="221" />
        <source>Middle switch</source>
        <translation>Mellomsvitsj</translation>
    </message>
    <message>
        <location filename="../views/FabricView.cpp" line="223" />
        <source>Leaf switch</source>
        <translation>Løvsvitsj</translation>
    </message>
    <message>
        <location filename="../views/FabricView.cpp" line="232" />
        <source>Host</source>
        <translation>Vert</translation>
    </message>
    <message>
        <location filename="../views/FabricView.cpp" line="234" />
        <source>Router</source>
        <translation>Ruter</translation>
    </message>
    <message>
        <location filename="../views/FabricView.cpp" line="235" />
        <source>Cable</source>
        <translation>Kabel</translation>
    </message>
    <message>
        <location filename="../views/FabricView.cpp" line="236" />
        <source>Cable of selection</source>
        <translation>Kabel til det valgte</translation>
    </message>
</context>
<context>
    <name>weft::MainWindow</name>
    <message>
        <location filename="../app/MainWindow.cpp" line="77" />
        <source>Zoom %1 %</source>
        <translation>Zoom %1 %</translation>
    </message>
    <message>
        <location filename="../app/MainWindow.cpp" line="84" />
        <source>Weft</source>
        <translation>Weft</translation>
    </message>
    <message>
        <location filename="../app/MainWindow.cpp" line="102" />
        <source>Find a node by name, GUID or LID ("lid 17")</source>
        <translation>Finn en node etter navn, GUID eller LID («lid 17»)</translation>
    </message>
    <message>
        <location filename="../app/MainWindow.cpp" line="142" />
        <source>Nodes</source>
        <translation>Noder</translation>
    </message>
    <message>
        <location filename="../app/MainWindow.cpp" line="150" />
        <source>Fabric</source>
        <translation>Fabric</translation>
    </message>
    <message>
        <location filename="../app/MainWindow.cpp" line="150" />
        <source>Count</source>
        <translation>Antall</translation>
    </message>
    <message>
        <location filename="../app/MainWindow.cpp" line="156" />
        <source>Summary</source>
        <translation>Oversikt</translation>
    </message>
    <message>
        <location filename="../app/MainWindow.cpp" line="164" />
        <source>Partition</source>
        <translation>Partisjon</translation>
    </message>
    <message>
        <location filename="../app/MainWindow.cpp" line="164" />
        <source>P_Key</source>
        <translation>P_Key</translation>
    </message>
    <message>
        <location filename="../app/MainWindow.cpp" line="164" />
        <source>Members</source>
        <translation>Medlemmer</translation>
    </message>
    <message>
        <location filename="../app/MainWindow.cpp" line="164" />
        <source>Isolation</source>
        <translation>Isolasjon</translation>
    </message>
    <message>
        <location filename="../app/MainWindow.cpp" line="168" />
        <source>Partitions</source>
        <translation>Partisjoner</translation>
    </message>
    <message>
        <location filename="../app/MainWindow.cpp" line="178" />
        <source>&amp;File</source>
        <translation>&amp;Fil</translation>
    </message>
    <message>
        <location filename="../app/MainWindow.cpp" line="179" />
        <source>&amp;Open Topology…</source>
        <translation>&amp;Åpne topologi …</translation>
    </message>
    <message>
        <location filename="../app/MainWindow.cpp" line="181" />
        <source>Open &amp;Demo Fabric</source>
        <translation>Åpne &amp;demofabric</translation>
    </message>
    <message>
        <location filename="../app/MainWindow.cpp" line="182" />
        <source>Open &amp;Recent</source>
        <translation>Åpne &amp;nylig brukt</translation>
    </message>
    <message>
        <location filename="../app/MainWindow.cpp" line="185" />
        <source>&amp;Quit</source>
        <translation>&amp;Avslutt</translation>
    </message>
    <message>
        <location filename="../app/MainWindow.cpp" line="189" />
        <source>&amp;View</source>
        <translation>&amp;Vis</translation>
    </message>
    <message>
        <location filename="../app/MainWindow.cpp" line="190" />
        <source>&amp;Fit to Window</source>
        <translation>&amp;Tilpass til vinduet</translation>
    </message>
    <message>
        <location filename="../app/MainWindow.cpp" line="192" />
        <source>Zoom &amp;In</source>
        <translation>Zoom &amp;inn</translation>
    </message>
    <message>
        <location filename="../app/MainWindow.cpp" line="194" />
        <source>Zoom &amp;Out</source>
        <translation>Zoom &amp;ut</translation>
    </message>
    <message>
        <location filename="../app/MainWindow.cpp" line="200" />
        <source>&amp;Help</source>
        <translation>&amp;Hjelp</translation>
    </message>
    <message>
        <location filename="../app/MainWindow.cpp" line="201" />
        <source>&amp;About Weft</source>
        <translation>&amp;Om Weft</translation>
    </message>
    <message>
        <location filename="../app/MainWindow.cpp" line="203" />
        <source>About &amp;Qt</source>
        <translation>Om &amp;Qt</translation>
    </message>
    <message>
        <location filename="../app/MainWindow.cpp" line="239" />
        <source>%1 — Weft</source>
        <translation>%1 — Weft</translation>
    </message>
    <message>
        <location filename="../app/MainWindow.cpp" line="248" />
        <source>Laying out the fabric (%1 nodes)…</source>
        <translation>Plasserer nodene i fabricen (%1 noder) …</translation>
    </message>
    <message>
        <location filename="../app/MainWindow.cpp" line="304" />
        <source>Cannot Open the Demo Fabric</source>
        <translation>Kan ikke åpne demofabricen</translation>
    </message>
    <message>
        <location filename="../app/MainWindow.cpp" line="311" />
        <source>Open Topology</source>
        <translation>Åpne topologi</translation>
    </message>
    <message>
        <location filename="../app/MainWindow.cpp" line="312" />
        <source>Topology files (ibnetdiscover, ibsim) (*.txt *.net *.topo);;All files (*)</source>
        <translation>Topologifiler (ibnetdiscover, ibsim) (*.txt *.net *.topo);;Alle filer (*)</translation>
    </message>
    <message>
        <location filename="../app/MainWindow.cpp" line="328" />
        <source>Cannot Open Topology</source>
        <translation>Kan ikke åpne topologien</translation>
    </message>
    <message>
        <location filename="../app/MainWindow.cpp" line="329" />
        <source>%1 could not be read. The fabric shown before is unchanged.</source>
        <translation>Kunne ikke lese %1. Fabricen som ble vist fra før, er uendret.</translation>
    </message>
    <message>
        <location filename="../app/MainWindow.cpp" line="354" />
        <source>&amp;%1 %2</source>
        <translation>&amp;%1 %2</translation>
    </message>
    <message>
        <location filename="../app/MainWindow.cpp" line="360" />
        <source>No Recent Files</source>
        <translation>Ingen nylig brukte filer</translation>
    </message>
    <message>
        <location filename="../app/MainWindow.cpp" line="364" />
        <source>&amp;Clear List</source>
        <translation>&amp;Tøm listen</translation>
    </message>
    <message>
        <location filename="../app/MainWindow.cpp" line="372" />
        <source>About Weft</source>
        <translation>Om Weft</translation>
    </message>
    <message>
        <location filename="../app/MainWindow.cpp" line="373" />
        <source>&lt;h3&gt;Weft %1&lt;/h3&gt;&lt;p&gt;A fabric manager for InfiniBand: topology, partitions and routing, previewed before they reach the subnet manager.&lt;/p&gt;</source>
        <translation>&lt;h3&gt;Weft %1&lt;/h3&gt;&lt;p&gt;En fabric-forvalter for InfiniBand: topologi, partisjoner og ruting, forhåndsvist før de når subnet-manageren.&lt;/p&gt;</translation>
    </message>
    <message>
        <location filename="../app/MainWindow.cpp" line="385" />
        <source>Switches</source>
        <translation>Svitsjer</translation>
    </message>
    <message>
        <location filename="../app/MainWindow.cpp" line="386" />
        <source>Hosts (channel adapters)</source>
        <translation>Verter (kanaladaptere)</translation>
    </message>
    <message>
        <location filename="../app/MainWindow.cpp" line="388" />
        <source>Routers</source>
        <translation>Rutere</translation>
    </message>
    <message>
        <location filename="../app/MainWindow.cpp" line="389" />
        <source>Cables</source>
        <translation>Kabler</translation>
    </message>
    <message>
        <location filename="../app/MainWindow.cpp" line="390" />
        <source>Between switches</source>
        <translation>Mellom svitsjer</translation>
    </message>
    <message>
        <location filename="../app/MainWindow.cpp" line="391" />
        <source>To hosts and routers</source>
        <translation>Til verter og rutere</translation>
    </message>
    <message>
        <location filename="../app/MainWindow.cpp" line="392" />
        <source>Switch tiers</source>
        <translation>Svitsjnivåer</translation>
    </message>
    <message>
        <location filename="../app/MainWindow.cpp" line="396" />
        <source>Tier 1 (leaves)</source>
        <translation>Nivå 1 (løvsvitsjer)</translation>
    </message>
    <message>
        <location filename="../app/MainWindow.cpp" line="398" />
        <source>Tier %1 (roots)</source>
        <translation>Nivå %1 (rotsvitsjer)</translation>
    </message>
    <message>
        <location filename="../app/MainWindow.cpp" line="400" />
        <source>Tier %1</source>
        <translation>Nivå %1</translation>
    </message>
    <message>
        <location filename="../app/MainWindow.cpp" line="404" />
        <source>Switches with no path to a host</source>
        <translation>Svitsjer uten vei til en vert</translation>
    </message>
    <message>
        <location filename="../app/MainWindow.cpp" line="405" />
        <source>none assigned</source>
        <translation>ingen tildelt</translation>
    </message>
    <message>
        <location filename="../app/MainWindow.cpp" line="406" />
        <source>%1–%2</source>
        <translation>%1–%2</translation>
    </message>
    <message>
        <location filename="../app/MainWindow.cpp" line="407" />
        <source>LID range</source>
        <translation>LID-område</translation>
    </message>
    <message>
        <location filename="../app/MainWindow.cpp" line="408" />
        <source>LIDs assigned</source>
        <translation>Tildelte LID-er</translation>
    </message>
    <message>
        <location filename="../app/MainWindow.cpp" line="424" />
        <source>all ports</source>
        <translation>alle porter</translation>
    </message>
    <message>
        <location filename="../app/MainWindow.cpp" line="427" />
        <source>all hosts</source>
        <translation>alle verter</translation>
    </message>
    <message>
        <location filename="../app/MainWindow.cpp" line="430" />
        <source>all switches</source>
        <translation>alle svitsjer</translation>
    </message>
    <message>
        <location filename="../app/MainWindow.cpp" line="433" />
        <source>all routers</source>
        <translation>alle rutere</translation>
    </message>
    <message>
        <location filename="../app/MainWindow.cpp" line="436" />
        <source>the SM's port</source>
        <translation>SM-ens port</translation>
    </message>
    <message>
        <location filename="../app/MainWindow.cpp" line="445" />
        <source>automatic</source>
        <translation>automatisk</translation>
    </message>
    <message>
        <location filename="../app/MainWindow.cpp" line="455" />
        <source>No fabric</source>
        <translation>Ingen fabric</translation>
    </message>
    <message>
        <location filename="../app/MainWindow.cpp" line="459" />
        <source>Switches: %1 · Hosts: %2 · Cables: %3</source>
        <translation>Svitsjer: %1 · Verter: %2 · Kabler: %3</translation>
    </message>
</context>
<context>
    <name>weft::NodeTableModel</name>
    <message>
        <location filename="../views/NodeTableModel.cpp" line="62" />
        <source>Switch</source>
        <translation>Svitsj</translation>
    </message>
    <message>
        <location filename="../views/NodeTableModel.cpp" line="64" />
        <source>Host</source>
        <translation>Vert</translation>
    </message>
    <message>
        <location filename="../views/NodeTableModel.cpp" line="66" />
        <source>Router</source>
        <translation>Ruter</translation>
    </message>
    <message>
        <location filename="../views/NodeTableModel.cpp" line="119" />
        <source>none</source>
        <translation>ingen</translation>
    </message>
    <message>
        <location filename="../views/NodeTableModel.cpp" line="132" />
        <source>Type</source>
        <translation>Type</translation>
    </message>
    <message>
        <location filename="../views/NodeTableModel.cpp" line="134" />
        <source>Description</source>
        <translation>Beskrivelse</translation>
    </message>
    <message>
        <location filename="../views/NodeTableModel.cpp" line="136" />
        <source>GUID</source>
        <translation>GUID</translation>
    </message>
    <message>
        <location filename="../views/NodeTableModel.cpp" line="138" />
        <source>LID</source>
        <translation>LID</translation>
    </message>
    <message>
        <location filename="../views/NodeTableModel.cpp" line="140" />
        <source>Ports</source>
        <translation>Porter</translation>
    </message>
    <message>
        <location filename="../views/NodeTableModel.cpp" line="142" />
        <source>Tier</source>
        <translation>Nivå</translation>
    </message>
</context>
</TS>
