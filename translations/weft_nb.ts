<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="nb_NO" sourcelanguage="en">
<context>
    <name>DemoFabric</name>
    <message>
        <location filename="../app/DemoFabric.cpp" line="34"/>
        <source>Demo fabric (%1-level fat-tree, %2 hosts)</source>
        <translation>Demofabric (fat-tree med %1 nivåer, %2 verter)</translation>
    </message>
</context>
<context>
    <name>weft::CommitJournalDialog</name>
    <message>
        <location filename="../views/CommitJournalDialog.cpp" line="20"/>
        <source>Commit Journal</source>
        <translation>Commit-logg</translation>
    </message>
    <message>
        <location filename="../views/CommitJournalDialog.cpp" line="28"/>
        <source>Select a commit to see its details.</source>
        <translation>Velg en commit for å se detaljene.</translation>
    </message>
    <message>
        <location filename="../views/CommitJournalDialog.cpp" line="55"/>
        <source>%1 · commits: %2</source>
        <translation>%1 · commits: %2</translation>
    </message>
    <message>
        <location filename="../views/CommitJournalDialog.cpp" line="71"/>
        <source>Plan: %1</source>
        <translation>Plan: %1</translation>
    </message>
    <message>
        <location filename="../views/CommitJournalDialog.cpp" line="71"/>
        <source>OpenSM files: %1, %2</source>
        <translation>OpenSM-filer: %1, %2</translation>
    </message>
</context>
<context>
    <name>weft::CommitJournalModel</name>
    <message>
        <location filename="../views/CommitJournalModel.cpp" line="70"/>
        <source>Time</source>
        <translation>Tid</translation>
    </message>
    <message>
        <location filename="../views/CommitJournalModel.cpp" line="71"/>
        <source>User</source>
        <translation>Bruker</translation>
    </message>
    <message>
        <location filename="../views/CommitJournalModel.cpp" line="72"/>
        <source>Outcome</source>
        <translation>Utfall</translation>
    </message>
    <message>
        <location filename="../views/CommitJournalModel.cpp" line="73"/>
        <source>SMPs</source>
        <translation>SMP-er</translation>
    </message>
    <message>
        <location filename="../views/CommitJournalModel.cpp" line="74"/>
        <source>Plan</source>
        <translation>Plan</translation>
    </message>
</context>
<context>
    <name>weft::FabricScene</name>
    <message>
        <location filename="../views/FabricScene.cpp" line="276"/>
        <source>Switch</source>
        <translation>Svitsj</translation>
    </message>
    <message>
        <location filename="../views/FabricScene.cpp" line="279"/>
        <source>Host</source>
        <translation>Vert</translation>
    </message>
    <message>
        <location filename="../views/FabricScene.cpp" line="282"/>
        <source>Router</source>
        <translation>Ruter</translation>
    </message>
    <message>
        <location filename="../views/FabricScene.cpp" line="291"/>
        <source>&lt;b&gt;%1&lt;/b&gt; (%2)&lt;br&gt;GUID %3&lt;br&gt;LID %4&lt;br&gt;%5 ports, %6 cabled&lt;br&gt;Tier %7</source>
        <translation>&lt;b&gt;%1&lt;/b&gt; (%2)&lt;br&gt;GUID %3&lt;br&gt;LID %4&lt;br&gt;%5 porter, %6 kablet&lt;br&gt;Nivå %7</translation>
    </message>
    <message>
        <location filename="../views/FabricScene.cpp" line="292"/>
        <source>none</source>
        <translation>ingen</translation>
    </message>
    <message>
        <location filename="../views/FabricScene.cpp" line="295"/>
        <source>none (no path to a host)</source>
        <translation>ingen (ingen vei til en vert)</translation>
    </message>
    <message>
        <location filename="../views/FabricScene.cpp" line="312"/>
        <source>Hosts under %1: %2</source>
        <translation>Verter under %1: %2</translation>
    </message>
</context>
<context>
    <name>weft::FabricView</name>
    <message>
        <location filename="../views/FabricView.cpp" line="193"/>
        <source>Hosts</source>
        <translation>Verter</translation>
    </message>
    <message>
        <location filename="../views/FabricView.cpp" line="195"/>
        <source>Leaves</source>
        <translation>Løvsvitsjer</translation>
    </message>
    <message>
        <location filename="../views/FabricView.cpp" line="197"/>
        <source>Roots</source>
        <translation>Rotsvitsjer</translation>
    </message>
    <message>
        <location filename="../views/FabricView.cpp" line="199"/>
        <source>Tier %1</source>
        <translation>Nivå %1</translation>
    </message>
    <message>
        <location filename="../views/FabricView.cpp" line="200"/>
        <source>%1 · %2</source>
        <translation>%1 · %2</translation>
    </message>
    <message>
        <location filename="../views/FabricView.cpp" line="219"/>
        <source>Root switch</source>
        <translation>Rotsvitsj</translation>
    </message>
    <message>
        <location filename="../views/FabricView.cpp" line="221"/>
        <source>Middle switch</source>
        <translation>Mellomsvitsj</translation>
    </message>
    <message>
        <location filename="../views/FabricView.cpp" line="223"/>
        <source>Leaf switch</source>
        <translation>Løvsvitsj</translation>
    </message>
    <message>
        <location filename="../views/FabricView.cpp" line="232"/>
        <source>Host</source>
        <translation>Vert</translation>
    </message>
    <message>
        <location filename="../views/FabricView.cpp" line="234"/>
        <source>Router</source>
        <translation>Ruter</translation>
    </message>
    <message>
        <location filename="../views/FabricView.cpp" line="235"/>
        <source>Cable</source>
        <translation>Kabel</translation>
    </message>
    <message>
        <location filename="../views/FabricView.cpp" line="236"/>
        <source>Cable of selection</source>
        <translation>Kabel til det valgte</translation>
    </message>
</context>
<context>
    <name>weft::MainWindow</name>
    <message>
        <location filename="../app/MainWindow.cpp" line="80"/>
        <source>Zoom %1 %</source>
        <translation>Zoom %1 %</translation>
    </message>
    <message>
        <location filename="../app/MainWindow.cpp" line="87"/>
        <source>Weft</source>
        <translation>Weft</translation>
    </message>
    <message>
        <location filename="../app/MainWindow.cpp" line="105"/>
        <source>Find a node by name, GUID or LID (&quot;lid 17&quot;)</source>
        <translation>Finn en node etter navn, GUID eller LID («lid 17»)</translation>
    </message>
    <message>
        <location filename="../app/MainWindow.cpp" line="145"/>
        <source>Nodes</source>
        <translation>Noder</translation>
    </message>
    <message>
        <location filename="../app/MainWindow.cpp" line="153"/>
        <source>Fabric</source>
        <translation>Fabric</translation>
    </message>
    <message>
        <location filename="../app/MainWindow.cpp" line="153"/>
        <source>Count</source>
        <translation>Antall</translation>
    </message>
    <message>
        <location filename="../app/MainWindow.cpp" line="159"/>
        <source>Summary</source>
        <translation>Oversikt</translation>
    </message>
    <message>
        <location filename="../app/MainWindow.cpp" line="167"/>
        <source>Partition</source>
        <translation>Partisjon</translation>
    </message>
    <message>
        <location filename="../app/MainWindow.cpp" line="167"/>
        <source>P_Key</source>
        <translation>P_Key</translation>
    </message>
    <message>
        <location filename="../app/MainWindow.cpp" line="167"/>
        <source>Members</source>
        <translation>Medlemmer</translation>
    </message>
    <message>
        <location filename="../app/MainWindow.cpp" line="167"/>
        <source>Isolation</source>
        <translation>Isolasjon</translation>
    </message>
    <message>
        <location filename="../app/MainWindow.cpp" line="171"/>
        <source>Partitions</source>
        <translation>Partisjoner</translation>
    </message>
    <message>
        <location filename="../app/MainWindow.cpp" line="181"/>
        <source>&amp;File</source>
        <translation>&amp;Fil</translation>
    </message>
    <message>
        <location filename="../app/MainWindow.cpp" line="182"/>
        <source>&amp;Open Topology…</source>
        <translation>&amp;Åpne topologi …</translation>
    </message>
    <message>
        <location filename="../app/MainWindow.cpp" line="184"/>
        <source>Open &amp;Demo Fabric</source>
        <translation>Åpne &amp;demofabric</translation>
    </message>
    <message>
        <location filename="../app/MainWindow.cpp" line="185"/>
        <source>Open &amp;Recent</source>
        <translation>Åpne &amp;nylig brukt</translation>
    </message>
    <message>
        <location filename="../app/MainWindow.cpp" line="188"/>
        <source>&amp;Quit</source>
        <translation>&amp;Avslutt</translation>
    </message>
    <message>
        <location filename="../app/MainWindow.cpp" line="192"/>
        <source>&amp;View</source>
        <translation>&amp;Vis</translation>
    </message>
    <message>
        <location filename="../app/MainWindow.cpp" line="193"/>
        <source>&amp;Fit to Window</source>
        <translation>&amp;Tilpass til vinduet</translation>
    </message>
    <message>
        <location filename="../app/MainWindow.cpp" line="195"/>
        <source>Zoom &amp;In</source>
        <translation>Zoom &amp;inn</translation>
    </message>
    <message>
        <location filename="../app/MainWindow.cpp" line="197"/>
        <source>Zoom &amp;Out</source>
        <translation>Zoom &amp;ut</translation>
    </message>
    <message>
        <location filename="../app/MainWindow.cpp" line="203"/>
        <source>F&amp;abric</source>
        <translation>F&amp;abric</translation>
    </message>
    <message>
        <location filename="../app/MainWindow.cpp" line="204"/>
        <source>Commit &amp;Journal…</source>
        <translation>Commit-&amp;logg…</translation>
    </message>
    <message>
        <location filename="../app/MainWindow.cpp" line="206"/>
        <source>&amp;Help</source>
        <translation>&amp;Hjelp</translation>
    </message>
    <message>
        <location filename="../app/MainWindow.cpp" line="207"/>
        <source>&amp;About Weft</source>
        <translation>&amp;Om Weft</translation>
    </message>
    <message>
        <location filename="../app/MainWindow.cpp" line="209"/>
        <source>About &amp;Qt</source>
        <translation>Om &amp;Qt</translation>
    </message>
    <message>
        <location filename="../app/MainWindow.cpp" line="222"/>
        <source>Open Commit Journal</source>
        <translation>Åpne commit-logg</translation>
    </message>
    <message>
        <location filename="../app/MainWindow.cpp" line="223"/>
        <source>Commit journals (*.jsonl);;All files (*)</source>
        <translation>Commit-logger (*.jsonl);;Alle filer (*)</translation>
    </message>
    <message>
        <location filename="../app/MainWindow.cpp" line="232"/>
        <source>Commit Journal</source>
        <translation>Commit-logg</translation>
    </message>
    <message>
        <location filename="../app/MainWindow.cpp" line="232"/>
        <source>Cannot read the commit journal:
%1</source>
        <translation>Kan ikke lese commit-loggen:
%1</translation>
    </message>
    <message>
        <location filename="../app/MainWindow.cpp" line="271"/>
        <source>%1 — Weft</source>
        <translation>%1 — Weft</translation>
    </message>
    <message>
        <location filename="../app/MainWindow.cpp" line="280"/>
        <source>Laying out the fabric (%1 nodes)…</source>
        <translation>Plasserer nodene i fabricen (%1 noder) …</translation>
    </message>
    <message>
        <location filename="../app/MainWindow.cpp" line="336"/>
        <source>Cannot Open the Demo Fabric</source>
        <translation>Kan ikke åpne demofabricen</translation>
    </message>
    <message>
        <location filename="../app/MainWindow.cpp" line="343"/>
        <source>Open Topology</source>
        <translation>Åpne topologi</translation>
    </message>
    <message>
        <location filename="../app/MainWindow.cpp" line="344"/>
        <source>Topology files (ibnetdiscover, ibsim) (*.txt *.net *.topo);;All files (*)</source>
        <translation>Topologifiler (ibnetdiscover, ibsim) (*.txt *.net *.topo);;Alle filer (*)</translation>
    </message>
    <message>
        <location filename="../app/MainWindow.cpp" line="360"/>
        <source>Cannot Open Topology</source>
        <translation>Kan ikke åpne topologien</translation>
    </message>
    <message>
        <location filename="../app/MainWindow.cpp" line="361"/>
        <source>%1 could not be read. The fabric shown before is unchanged.</source>
        <translation>Kunne ikke lese %1. Fabricen som ble vist fra før, er uendret.</translation>
    </message>
    <message>
        <location filename="../app/MainWindow.cpp" line="386"/>
        <source>&amp;%1 %2</source>
        <translation>&amp;%1 %2</translation>
    </message>
    <message>
        <location filename="../app/MainWindow.cpp" line="392"/>
        <source>No Recent Files</source>
        <translation>Ingen nylig brukte filer</translation>
    </message>
    <message>
        <location filename="../app/MainWindow.cpp" line="396"/>
        <source>&amp;Clear List</source>
        <translation>&amp;Tøm listen</translation>
    </message>
    <message>
        <location filename="../app/MainWindow.cpp" line="404"/>
        <source>About Weft</source>
        <translation>Om Weft</translation>
    </message>
    <message>
        <location filename="../app/MainWindow.cpp" line="405"/>
        <source>&lt;h3&gt;Weft %1&lt;/h3&gt;&lt;p&gt;A fabric manager for InfiniBand: topology, partitions and routing, previewed before they reach the subnet manager.&lt;/p&gt;</source>
        <translation>&lt;h3&gt;Weft %1&lt;/h3&gt;&lt;p&gt;En fabric-forvalter for InfiniBand: topologi, partisjoner og ruting, forhåndsvist før de når subnet-manageren.&lt;/p&gt;</translation>
    </message>
    <message>
        <location filename="../app/MainWindow.cpp" line="417"/>
        <source>Switches</source>
        <translation>Svitsjer</translation>
    </message>
    <message>
        <location filename="../app/MainWindow.cpp" line="418"/>
        <source>Hosts (channel adapters)</source>
        <translation>Verter (kanaladaptere)</translation>
    </message>
    <message>
        <location filename="../app/MainWindow.cpp" line="420"/>
        <source>Routers</source>
        <translation>Rutere</translation>
    </message>
    <message>
        <location filename="../app/MainWindow.cpp" line="421"/>
        <source>Cables</source>
        <translation>Kabler</translation>
    </message>
    <message>
        <location filename="../app/MainWindow.cpp" line="422"/>
        <source>Between switches</source>
        <translation>Mellom svitsjer</translation>
    </message>
    <message>
        <location filename="../app/MainWindow.cpp" line="423"/>
        <source>To hosts and routers</source>
        <translation>Til verter og rutere</translation>
    </message>
    <message>
        <location filename="../app/MainWindow.cpp" line="424"/>
        <source>Switch tiers</source>
        <translation>Svitsjnivåer</translation>
    </message>
    <message>
        <location filename="../app/MainWindow.cpp" line="428"/>
        <source>Tier 1 (leaves)</source>
        <translation>Nivå 1 (løvsvitsjer)</translation>
    </message>
    <message>
        <location filename="../app/MainWindow.cpp" line="430"/>
        <source>Tier %1 (roots)</source>
        <translation>Nivå %1 (rotsvitsjer)</translation>
    </message>
    <message>
        <location filename="../app/MainWindow.cpp" line="432"/>
        <source>Tier %1</source>
        <translation>Nivå %1</translation>
    </message>
    <message>
        <location filename="../app/MainWindow.cpp" line="436"/>
        <source>Switches with no path to a host</source>
        <translation>Svitsjer uten vei til en vert</translation>
    </message>
    <message>
        <location filename="../app/MainWindow.cpp" line="437"/>
        <source>none assigned</source>
        <translation>ingen tildelt</translation>
    </message>
    <message>
        <location filename="../app/MainWindow.cpp" line="438"/>
        <source>%1–%2</source>
        <translation>%1–%2</translation>
    </message>
    <message>
        <location filename="../app/MainWindow.cpp" line="439"/>
        <source>LID range</source>
        <translation>LID-område</translation>
    </message>
    <message>
        <location filename="../app/MainWindow.cpp" line="440"/>
        <source>LIDs assigned</source>
        <translation>Tildelte LID-er</translation>
    </message>
    <message>
        <location filename="../app/MainWindow.cpp" line="456"/>
        <source>all ports</source>
        <translation>alle porter</translation>
    </message>
    <message>
        <location filename="../app/MainWindow.cpp" line="459"/>
        <source>all hosts</source>
        <translation>alle verter</translation>
    </message>
    <message>
        <location filename="../app/MainWindow.cpp" line="462"/>
        <source>all switches</source>
        <translation>alle svitsjer</translation>
    </message>
    <message>
        <location filename="../app/MainWindow.cpp" line="465"/>
        <source>all routers</source>
        <translation>alle rutere</translation>
    </message>
    <message>
        <location filename="../app/MainWindow.cpp" line="468"/>
        <source>the SM&apos;s port</source>
        <translation>SM-ens port</translation>
    </message>
    <message>
        <location filename="../app/MainWindow.cpp" line="477"/>
        <source>automatic</source>
        <translation>automatisk</translation>
    </message>
    <message>
        <location filename="../app/MainWindow.cpp" line="487"/>
        <source>No fabric</source>
        <translation>Ingen fabric</translation>
    </message>
    <message>
        <location filename="../app/MainWindow.cpp" line="491"/>
        <source>Switches: %1 · Hosts: %2 · Cables: %3</source>
        <translation>Svitsjer: %1 · Verter: %2 · Kabler: %3</translation>
    </message>
</context>
<context>
    <name>weft::NodeTableModel</name>
    <message>
        <location filename="../views/NodeTableModel.cpp" line="62"/>
        <source>Switch</source>
        <translation>Svitsj</translation>
    </message>
    <message>
        <location filename="../views/NodeTableModel.cpp" line="64"/>
        <source>Host</source>
        <translation>Vert</translation>
    </message>
    <message>
        <location filename="../views/NodeTableModel.cpp" line="66"/>
        <source>Router</source>
        <translation>Ruter</translation>
    </message>
    <message>
        <location filename="../views/NodeTableModel.cpp" line="119"/>
        <source>none</source>
        <translation>ingen</translation>
    </message>
    <message>
        <location filename="../views/NodeTableModel.cpp" line="132"/>
        <source>Type</source>
        <translation>Type</translation>
    </message>
    <message>
        <location filename="../views/NodeTableModel.cpp" line="134"/>
        <source>Description</source>
        <translation>Beskrivelse</translation>
    </message>
    <message>
        <location filename="../views/NodeTableModel.cpp" line="136"/>
        <source>GUID</source>
        <translation>GUID</translation>
    </message>
    <message>
        <location filename="../views/NodeTableModel.cpp" line="138"/>
        <source>LID</source>
        <translation>LID</translation>
    </message>
    <message>
        <location filename="../views/NodeTableModel.cpp" line="140"/>
        <source>Ports</source>
        <translation>Porter</translation>
    </message>
    <message>
        <location filename="../views/NodeTableModel.cpp" line="142"/>
        <source>Tier</source>
        <translation>Nivå</translation>
    </message>
</context>
</TS>
