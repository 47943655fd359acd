<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="nb_NO" sourcelanguage="en">
<context>
    <name>DemoFabric</name>
    <message>
        <location filename="../app/gui/DemoFabric.cpp" line="34"/>
        <source>Demo fabric (%1-level fat-tree, %2 hosts)</source>
        <translation>Demofabric (fat-tree med %1 nivåer, %2 verter)</translation>
    </message>
</context>
<context>
    <name>QMainWindow</name>
    <message>
        <location filename="../app/gui/DeskDocks.cpp" line="74"/>
        <source>Summary</source>
        <translation>Sammendrag</translation>
    </message>
    <message>
        <location filename="../app/gui/DeskDocks.cpp" line="77"/>
        <source>Fabric as opened</source>
        <translation>Fabricen slik den ble åpnet</translation>
    </message>
    <message>
        <location filename="../app/gui/DeskDocks.cpp" line="78"/>
        <source>History</source>
        <translation>Historikk</translation>
    </message>
    <message>
        <location filename="../app/gui/DeskDocks.cpp" line="80"/>
        <source>Policies</source>
        <translation>Isolasjonsregler</translation>
    </message>
    <message>
        <location filename="../app/gui/DeskDocks.cpp" line="82"/>
        <source>Node Weights</source>
        <translation>Nodevekter</translation>
    </message>
    <message>
        <location filename="../app/gui/DeskDocks.cpp" line="90"/>
        <source>Partitions</source>
        <translation>Partisjoner</translation>
    </message>
    <message>
        <location filename="../app/gui/DeskDocks.cpp" line="92"/>
        <source>Routing Preview</source>
        <translation>Forhåndsvisning av ruting</translation>
    </message>
    <message>
        <location filename="../app/gui/DeskDocks.cpp" line="94"/>
        <source>Autopilot</source>
        <translation>Autopilot</translation>
    </message>
    <message>
        <location filename="../app/gui/DeskDocks.cpp" line="101"/>
        <source>Nodes</source>
        <translation>Noder</translation>
    </message>
    <message>
        <location filename="../app/gui/DeskDocks.cpp" line="104"/>
        <source>Diff Review</source>
        <translation>Gjennomgang av endringer</translation>
    </message>
    <message>
        <location filename="../app/gui/DeskDocks.cpp" line="107"/>
        <source>Reconfiguration Studio</source>
        <translation>Rekonfigureringsstudio</translation>
    </message>
    <message>
        <location filename="../app/gui/DeskDocks.cpp" line="114"/>
        <source>Telemetry</source>
        <translation>Telemetri</translation>
    </message>
    <message>
        <location filename="../app/gui/DeskDocks.cpp" line="116"/>
        <source>Fabric Changes</source>
        <translation>Endringer i fabricen</translation>
    </message>
    <message>
        <location filename="../app/gui/DeskDocks.cpp" line="120"/>
        <source>LFT Inspector</source>
        <translation>LFT-inspektør</translation>
    </message>
    <message>
        <location filename="../app/gui/DeskDocks.cpp" line="124"/>
        <source>Trace Path</source>
        <translation>Spor vei</translation>
    </message>
    <message>
        <location filename="../app/gui/DeskDocks.cpp" line="128"/>
        <source>Virtual Machines</source>
        <translation>Virtuelle maskiner</translation>
    </message>
    <message>
        <location filename="../app/gui/DeskDocks.cpp" line="131"/>
        <source>Routing Keys</source>
        <translation>Rutingnøkler</translation>
    </message>
    <message>
        <location filename="../app/gui/DeskDocks.cpp" line="134"/>
        <source>OpenSM</source>
        <translation>OpenSM</translation>
    </message>
    <message>
        <location filename="../app/gui/DeskDocks.cpp" line="137"/>
        <source>Subnet Managers</source>
        <translation>Subnet-managere</translation>
    </message>
</context>
<context>
    <name>UndoCommands</name>
    <message numerus="yes">
        <location filename="../views/document/TenancyCommands.cpp" line="77"/>
        <source>Assign %n host(s) to %1</source>
        <translation>
            <numerusform>Tilordne %n vert til %1</numerusform>
            <numerusform>Tilordne %n verter til %1</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../views/document/TenancyCommands.cpp" line="98"/>
        <source>Remove %n host(s) from %1</source>
        <translation>
            <numerusform>Fjerne %n vert fra %1</numerusform>
            <numerusform>Fjerne %n verter fra %1</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../views/document/TenancyCommands.cpp" line="106"/>
        <source>Assign tenant %1 (%n host(s)) to %2</source>
        <translation>
            <numerusform>Tilordne leietaker %1 (%n vert) til %2</numerusform>
            <numerusform>Tilordne leietaker %1 (%n verter) til %2</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../views/document/TenancyCommands.cpp" line="114"/>
        <source>Create partition %1 (%2)</source>
        <translation>Opprette partisjon %1 (%2)</translation>
    </message>
    <message>
        <location filename="../views/document/TenancyCommands.cpp" line="143"/>
        <source>Delete partition %1</source>
        <translation>Slette partisjon %1</translation>
    </message>
    <message>
        <location filename="../views/document/TenancyCommands.cpp" line="165"/>
        <source>Rename partition %1 to %2</source>
        <translation>Gi partisjon %1 nytt navn %2</translation>
    </message>
    <message>
        <location filename="../views/document/TenancyCommands.cpp" line="180"/>
        <source>physical isolation</source>
        <translation>fysisk isolasjon</translation>
    </message>
    <message>
        <location filename="../views/document/TenancyCommands.cpp" line="181"/>
        <source>virtual-lane isolation</source>
        <translation>isolasjon med virtuelle baner</translation>
    </message>
    <message>
        <location filename="../views/document/TenancyCommands.cpp" line="182"/>
        <source>no isolation</source>
        <translation>ingen isolasjon</translation>
    </message>
    <message>
        <location filename="../views/document/TenancyCommands.cpp" line="191"/>
        <source>Set %1 to %2</source>
        <translation>Sette %1 til %2</translation>
    </message>
    <message>
        <location filename="../views/document/TenancyCommands.cpp" line="206"/>
        <source>Make isolation policies strict</source>
        <translation>Gjøre isolasjonsreglene strenge</translation>
    </message>
    <message>
        <location filename="../views/document/TenancyCommands.cpp" line="207"/>
        <source>Make isolation policies best-effort</source>
        <translation>Gjøre isolasjonsreglene veiledende</translation>
    </message>
    <message>
        <location filename="../views/document/TenancyCommands.cpp" line="227"/>
        <source>Set weight of %1 to %2</source>
        <translation>Sette vekten til %1 til %2</translation>
    </message>
    <message numerus="yes">
        <location filename="../views/document/TenancyCommands.cpp" line="266"/>
        <source>Import %n weight(s) from %1</source>
        <translation>
            <numerusform>Importere %n vekt fra %1</numerusform>
            <numerusform>Importere %n vekter fra %1</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>weft::Autopilot</name>
    <message>
        <location filename="../session/Autopilot.cpp" line="59"/>
        <source>the operator replaced or dropped the proposal</source>
        <translation>operatøren erstattet eller forkastet forslaget</translation>
    </message>
    <message>
        <location filename="../session/Autopilot.cpp" line="166"/>
        <source>Auto mode needs a commit target (Fabric ▸ Commit Target…).</source>
        <translation>Automatisk modus trenger et mål for innføring (Fabric ▸ Mål for innføring …).</translation>
    </message>
    <message>
        <location filename="../session/Autopilot.cpp" line="173"/>
        <source>The autopilot stays in dry run: %1</source>
        <translation>Autopiloten blir værende i tørrkjøring: %1</translation>
    </message>
    <message>
        <location filename="../session/Autopilot.cpp" line="186"/>
        <source>the autopilot was set to dry run</source>
        <translation>autopiloten ble satt til tørrkjøring</translation>
    </message>
    <message>
        <location filename="../session/Autopilot.cpp" line="260"/>
        <source>Discovering the fabric again failed: %1</source>
        <translation>Ny oppdagelse av fabricen mislyktes: %1</translation>
    </message>
    <message>
        <location filename="../session/Autopilot.cpp" line="278"/>
        <source>autonomy was paused or set to dry run while the change was planned</source>
        <translation>autonomien ble satt på pause eller til tørrkjøring mens endringen ble planlagt</translation>
    </message>
    <message>
        <location filename="../session/Autopilot.cpp" line="281"/>
        <source>the plan chose no candidate</source>
        <translation>planen valgte ingen kandidat</translation>
    </message>
    <message>
        <location filename="../session/Autopilot.cpp" line="284"/>
        <source>an earlier change is still being committed</source>
        <translation>den forrige endringen holder på å bli innført</translation>
    </message>
    <message>
        <location filename="../session/Autopilot.cpp" line="285"/>
        <source>a newer plan replaced it</source>
        <translation>en nyere plan erstattet den</translation>
    </message>
    <message>
        <location filename="../session/Autopilot.cpp" line="287"/>
        <source>Autopilot: rule %1 (%2)</source>
        <translation>Autopilot: regel %1 (%2)</translation>
    </message>
    <message>
        <location filename="../session/Autopilot.cpp" line="295"/>
        <source>the unattended commit was refused: %1</source>
        <translation>den uovervåkede innføringen ble avvist: %1</translation>
    </message>
    <message>
        <location filename="../session/Autopilot.cpp" line="296"/>
        <source>Unattended commit refused: %1</source>
        <translation>Uovervåket innføring avvist: %1</translation>
    </message>
    <message>
        <location filename="../session/Autopilot.cpp" line="347"/>
        <source>The autopilot&apos;s commit: %1</source>
        <translation>Autopilotens innføring: %1</translation>
    </message>
</context>
<context>
    <name>weft::AutopilotDock</name>
    <message>
        <location filename="../views/adapt/AutopilotDock.cpp" line="74"/>
        <source>no value</source>
        <translation>ingen verdi</translation>
    </message>
    <message>
        <location filename="../views/adapt/AutopilotDock.cpp" line="75"/>
        <source>%1 (now %2)</source>
        <translation>%1 (nå %2)</translation>
    </message>
    <message>
        <location filename="../views/adapt/AutopilotDock.cpp" line="88"/>
        <source>Dry run: log only</source>
        <translation>Tørrkjøring: bare logg</translation>
    </message>
    <message>
        <location filename="../views/adapt/AutopilotDock.cpp" line="89"/>
        <source>Approve: changes wait in the Diff Review</source>
        <translation>Godkjenn: endringer venter i Gjennomgang av endringer</translation>
    </message>
    <message>
        <location filename="../views/adapt/AutopilotDock.cpp" line="90"/>
        <source>Auto: commit, verify, roll back</source>
        <translation>Automatisk: innfør, verifiser, rull tilbake</translation>
    </message>
    <message>
        <location filename="../views/adapt/AutopilotDock.cpp" line="92"/>
        <location filename="../views/adapt/AutopilotDock.cpp" line="353"/>
        <source>Pause autonomy</source>
        <translation>Sett autonomi på pause</translation>
    </message>
    <message>
        <location filename="../views/adapt/AutopilotDock.cpp" line="95"/>
        <source>Rules are still evaluated and logged; nothing is planned, shown or committed.</source>
        <translation>Reglene evalueres og logges fortsatt; ingenting planlegges, vises eller innføres.</translation>
    </message>
    <message>
        <location filename="../views/adapt/AutopilotDock.cpp" line="99"/>
        <source>Mode:</source>
        <translation>Modus:</translation>
    </message>
    <message>
        <location filename="../views/adapt/AutopilotDock.cpp" line="108"/>
        <source># One rule per paragraph, for example:
rule hot_spot priority 5 cooldown 10m
  when max(node[all].rx_gbps) &gt; 20 for 30s
  then reroute(engine=wftree, weights=learned(5m))</source>
        <translation># Én regel per avsnitt, for eksempel:
rule hot_spot priority 5 cooldown 10m
  when max(node[all].rx_gbps) &gt; 20 for 30s
  then reroute(engine=wftree, weights=learned(5m))</translation>
    </message>
    <message>
        <location filename="../views/adapt/AutopilotDock.cpp" line="114"/>
        <source>&amp;Open…</source>
        <translation>&amp;Åpne …</translation>
    </message>
    <message>
        <location filename="../views/adapt/AutopilotDock.cpp" line="115"/>
        <source>&amp;Save…</source>
        <translation>&amp;Lagre …</translation>
    </message>
    <message>
        <location filename="../views/adapt/AutopilotDock.cpp" line="116"/>
        <source>&amp;Check</source>
        <translation>&amp;Kontroller</translation>
    </message>
    <message>
        <location filename="../views/adapt/AutopilotDock.cpp" line="118"/>
        <source>A&amp;pply</source>
        <translation>&amp;Bruk</translation>
    </message>
    <message>
        <location filename="../views/adapt/AutopilotDock.cpp" line="120"/>
        <source>Give the rules to the loop; on an error the rules in force stay.</source>
        <translation>Gi reglene til sløyfen; ved en feil blir reglene som gjelder, stående.</translation>
    </message>
    <message>
        <location filename="../views/adapt/AutopilotDock.cpp" line="135"/>
        <source>Rules</source>
        <translation>Regler</translation>
    </message>
    <message>
        <location filename="../views/adapt/AutopilotDock.cpp" line="143"/>
        <source>Stage</source>
        <translation>Trinn</translation>
    </message>
    <message>
        <location filename="../views/adapt/AutopilotDock.cpp" line="143"/>
        <source>Last</source>
        <translation>Sist</translation>
    </message>
    <message>
        <location filename="../views/adapt/AutopilotDock.cpp" line="143"/>
        <source>What it did</source>
        <translation>Hva det gjorde</translation>
    </message>
    <message>
        <location filename="../views/adapt/AutopilotDock.cpp" line="145"/>
        <source>Monitor</source>
        <translation>Overvåk</translation>
    </message>
    <message>
        <location filename="../views/adapt/AutopilotDock.cpp" line="145"/>
        <source>Analyze</source>
        <translation>Analyser</translation>
    </message>
    <message>
        <location filename="../views/adapt/AutopilotDock.cpp" line="145"/>
        <source>Plan</source>
        <translation>Planlegg</translation>
    </message>
    <message>
        <location filename="../views/adapt/AutopilotDock.cpp" line="145"/>
        <source>Execute</source>
        <translation>Utfør</translation>
    </message>
    <message>
        <location filename="../views/adapt/AutopilotDock.cpp" line="145"/>
        <source>Knowledge</source>
        <translation>Kunnskap</translation>
    </message>
    <message>
        <location filename="../views/adapt/AutopilotDock.cpp" line="158"/>
        <source>Active symptom</source>
        <translation>Aktivt symptom</translation>
    </message>
    <message>
        <location filename="../views/adapt/AutopilotDock.cpp" line="158"/>
        <source>Held / for</source>
        <translation>Holdt / for</translation>
    </message>
    <message>
        <location filename="../views/adapt/AutopilotDock.cpp" line="158"/>
        <source>Terms</source>
        <translation>Ledd</translation>
    </message>
    <message>
        <location filename="../views/adapt/AutopilotDock.cpp" line="159"/>
        <location filename="../views/adapt/AutopilotDock.cpp" line="161"/>
        <source>Cooling down</source>
        <translation>Avkjøles</translation>
    </message>
    <message>
        <location filename="../views/adapt/AutopilotDock.cpp" line="159"/>
        <location filename="../views/adapt/AutopilotDock.cpp" line="161"/>
        <source>Time left</source>
        <translation>Tid igjen</translation>
    </message>
    <message>
        <location filename="../views/adapt/AutopilotDock.cpp" line="167"/>
        <source>Loop</source>
        <translation>Sløyfe</translation>
    </message>
    <message>
        <location filename="../views/adapt/AutopilotDock.cpp" line="175"/>
        <source>Time</source>
        <translation>Tid</translation>
    </message>
    <message>
        <location filename="../views/adapt/AutopilotDock.cpp" line="175"/>
        <source>Event</source>
        <translation>Hendelse</translation>
    </message>
    <message>
        <location filename="../views/adapt/AutopilotDock.cpp" line="175"/>
        <source>Rule</source>
        <translation>Regel</translation>
    </message>
    <message>
        <location filename="../views/adapt/AutopilotDock.cpp" line="175"/>
        <source>Summary</source>
        <translation>Sammendrag</translation>
    </message>
    <message>
        <location filename="../views/adapt/AutopilotDock.cpp" line="181"/>
        <source>The selected record&apos;s details: inputs, candidates, decision, outcome.</source>
        <translation>Detaljene for den valgte posten: inndata, kandidater, beslutning, utfall.</translation>
    </message>
    <message>
        <location filename="../views/adapt/AutopilotDock.cpp" line="186"/>
        <source>Firing log</source>
        <translation>Utløsningslogg</translation>
    </message>
    <message numerus="yes">
        <location filename="../views/adapt/AutopilotDock.cpp" line="273"/>
        <source>%n rule(s), no error.</source>
        <translation>
            <numerusform>%n regel, ingen feil.</numerusform>
            <numerusform>%n regler, ingen feil.</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../views/adapt/AutopilotDock.cpp" line="285"/>
        <source>%1
Refused: the rules in force stay.</source>
        <translation>%1
Avvist: reglene som gjelder, blir stående.</translation>
    </message>
    <message numerus="yes">
        <location filename="../views/adapt/AutopilotDock.cpp" line="289"/>
        <source>%n rule(s) in force.</source>
        <translation>
            <numerusform>%n regel gjelder.</numerusform>
            <numerusform>%n regler gjelder.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../views/adapt/AutopilotDock.cpp" line="290"/>
        <source>%n rule(s) in force once the fabric has installed tables.</source>
        <translation>
            <numerusform>%n regel gjelder når fabricen har installerte tabeller.</numerusform>
            <numerusform>%n regler gjelder når fabricen har installerte tabeller.</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../views/adapt/AutopilotDock.cpp" line="301"/>
        <source>Cannot read %1: %2</source>
        <translation>Kan ikke lese %1: %2</translation>
    </message>
    <message>
        <location filename="../views/adapt/AutopilotDock.cpp" line="325"/>
        <source>Rules (*.rules);;All files (*)</source>
        <translation>Regler (*.rules);;Alle filer (*)</translation>
    </message>
    <message>
        <location filename="../views/adapt/AutopilotDock.cpp" line="326"/>
        <source>Save the Rules</source>
        <translation>Lagre reglene</translation>
    </message>
    <message>
        <location filename="../views/adapt/AutopilotDock.cpp" line="327"/>
        <source>Open a Rules File</source>
        <translation>Åpne en regelfil</translation>
    </message>
    <message>
        <location filename="../views/adapt/AutopilotDock.cpp" line="333"/>
        <source>Cannot Save the Rules</source>
        <translation>Kan ikke lagre reglene</translation>
    </message>
    <message>
        <location filename="../views/adapt/AutopilotDock.cpp" line="333"/>
        <source>Cannot Open the Rules</source>
        <translation>Kan ikke åpne reglene</translation>
    </message>
    <message>
        <location filename="../views/adapt/AutopilotDock.cpp" line="353"/>
        <source>Autonomy paused: resume</source>
        <translation>Autonomi på pause: fortsett</translation>
    </message>
    <message>
        <location filename="../views/adapt/AutopilotDock.cpp" line="385"/>
        <source>%1 / %2</source>
        <translation>%1 / %2</translation>
    </message>
    <message>
        <location filename="../views/adapt/AutopilotDock.cpp" line="386"/>
        <source>does not hold</source>
        <translation>holder ikke</translation>
    </message>
    <message>
        <location filename="../views/adapt/AutopilotDock.cpp" line="461"/>
        <source>Waiting for a fabric with installed tables (open an LFT dump, or discover a live fabric).</source>
        <translation>Venter på en fabric med installerte tabeller (åpne en LFT-dump, eller oppdag en levende fabric).</translation>
    </message>
    <message>
        <location filename="../views/adapt/AutopilotDock.cpp" line="465"/>
        <source>AUTONOMY PAUSED</source>
        <translation>AUTONOMI PÅ PAUSE</translation>
    </message>
    <message numerus="yes">
        <location filename="../views/adapt/AutopilotDock.cpp" line="466"/>
        <source>%n rule(s)</source>
        <translation>
            <numerusform>%n regel</numerusform>
            <numerusform>%n regler</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../views/adapt/AutopilotDock.cpp" line="467"/>
        <source>no tick yet: start Fabric ▸ Sample Port Counters</source>
        <translation>ingen måling ennå: start Fabric ▸ Les porttellere</translation>
    </message>
    <message numerus="yes">
        <location filename="../views/adapt/AutopilotDock.cpp" line="468"/>
        <source>%n tick(s), the last at %1 (%2 s)</source>
        <translation>
            <numerusform>%n måling, den siste kl. %1 (%2 s)</numerusform>
            <numerusform>%n målinger, den siste kl. %1 (%2 s)</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../views/adapt/AutopilotDock.cpp" line="471"/>
        <source>evaluating…</source>
        <translation>evaluerer …</translation>
    </message>
    <message numerus="yes">
        <location filename="../views/adapt/AutopilotDock.cpp" line="473"/>
        <source>%n tick(s) skipped while one ran</source>
        <translation>
            <numerusform>%n måling hoppet over mens en annen pågikk</numerusform>
            <numerusform>%n målinger hoppet over mens en annen pågikk</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../views/adapt/AutopilotDock.cpp" line="475"/>
        <source>committing the change of %1</source>
        <translation>innfører endringen fra %1</translation>
    </message>
    <message>
        <location filename="../views/adapt/AutopilotDock.cpp" line="476"/>
        <source>the change of %1 waits for approval in the Diff Review</source>
        <translation>endringen fra %1 venter på godkjenning i Gjennomgang av endringer</translation>
    </message>
    <message>
        <location filename="../views/adapt/AutopilotDock.cpp" line="490"/>
        <source>Last tick: none yet</source>
        <translation>Siste måling: ingen ennå</translation>
    </message>
    <message>
        <location filename="../views/adapt/AutopilotDock.cpp" line="491"/>
        <source>Last tick: %1, took %2 s</source>
        <translation>Siste måling: %1, tok %2 s</translation>
    </message>
</context>
<context>
    <name>weft::CandidateReview</name>
    <message>
        <location filename="../views/studio/CandidateReview.cpp" line="14"/>
        <source>No fabric is open.</source>
        <translation>Ingen fabric er åpen.</translation>
    </message>
    <message>
        <location filename="../views/studio/CandidateReview.cpp" line="16"/>
        <source>The installed tables are not known: a candidate has nothing to be compared with.</source>
        <translation>De installerte tabellene er ikke kjent: en kandidat har ingenting å sammenlignes med.</translation>
    </message>
</context>
<context>
    <name>weft::CommitJournalDialog</name>
    <message>
        <location filename="../views/review/CommitJournalDialog.cpp" line="25"/>
        <source>Commit Journal</source>
        <translation>Commit-logg</translation>
    </message>
    <message>
        <location filename="../views/review/CommitJournalDialog.cpp" line="33"/>
        <source>Select a commit to see its details.</source>
        <translation>Velg en commit for å se detaljene.</translation>
    </message>
    <message>
        <location filename="../views/review/CommitJournalDialog.cpp" line="60"/>
        <source>%1 · commits: %2</source>
        <translation>%1 · commits: %2</translation>
    </message>
    <message>
        <location filename="../views/review/CommitJournalDialog.cpp" line="76"/>
        <source>%1
Event: %2

%3</source>
        <translation>%1
Hendelse: %2

%3</translation>
    </message>
    <message>
        <location filename="../views/review/CommitJournalDialog.cpp" line="80"/>
        <source>Plan: %1</source>
        <translation>Plan: %1</translation>
    </message>
    <message>
        <location filename="../views/review/CommitJournalDialog.cpp" line="80"/>
        <source>OpenSM files: %1, %2</source>
        <translation>OpenSM-filer: %1, %2</translation>
    </message>
</context>
<context>
    <name>weft::CommitJournalModel</name>
    <message>
        <location filename="../views/review/CommitJournalModel.cpp" line="14"/>
        <source>Autopilot: %1</source>
        <translation>Autopilot: %1</translation>
    </message>
    <message>
        <location filename="../views/review/CommitJournalModel.cpp" line="15"/>
        <source>Autopilot, rule %1: %2</source>
        <translation>Autopilot, regel %1: %2</translation>
    </message>
    <message>
        <location filename="../views/review/CommitJournalModel.cpp" line="83"/>
        <source>Time</source>
        <translation>Tid</translation>
    </message>
    <message>
        <location filename="../views/review/CommitJournalModel.cpp" line="84"/>
        <source>User</source>
        <translation>Bruker</translation>
    </message>
    <message>
        <location filename="../views/review/CommitJournalModel.cpp" line="85"/>
        <source>Outcome</source>
        <translation>Utfall</translation>
    </message>
    <message>
        <location filename="../views/review/CommitJournalModel.cpp" line="86"/>
        <source>SMPs</source>
        <translation>SMP-er</translation>
    </message>
    <message>
        <location filename="../views/review/CommitJournalModel.cpp" line="87"/>
        <source>Plan</source>
        <translation>Plan</translation>
    </message>
</context>
<context>
    <name>weft::CommitRecoveryDialog</name>
    <message>
        <location filename="../views/review/CommitJournalDialog.cpp" line="98"/>
        <source>its files were written and never verified</source>
        <translation>filene ble skrevet, men aldri verifisert</translation>
    </message>
    <message>
        <location filename="../views/review/CommitJournalDialog.cpp" line="99"/>
        <source>it stopped while writing its files</source>
        <translation>den stoppet mens filene ble skrevet</translation>
    </message>
    <message>
        <location filename="../views/review/CommitJournalDialog.cpp" line="100"/>
        <source>A commit of %1 was started %2 by %3 and never finished: %4.</source>
        <translation>En innføring av %1 ble startet %2 av %3 og aldri fullført: %4.</translation>
    </message>
    <message>
        <location filename="../views/review/CommitJournalDialog.cpp" line="107"/>
        <source>%1 and %2</source>
        <translation>%1 og %2</translation>
    </message>
    <message>
        <location filename="../views/review/CommitJournalDialog.cpp" line="119"/>
        <source>Unfinished Commit</source>
        <translation>Ufullført innføring</translation>
    </message>
    <message>
        <location filename="../views/review/CommitJournalDialog.cpp" line="122"/>
        <source>OpenSM&apos;s files: %1. Until it is recovered, Approve is refused.

Verify: OpenSM reloads the files the commit wrote and Weft reads the fabric back; if it holds that plan the commit is finished, else the backups go back and are verified.
Roll back: the backups go back at once and are verified.</source>
        <translation>OpenSMs filer: %1. Inntil den er gjenopprettet, avvises Godkjenn.

Verifiser: OpenSM laster inn filene innføringen skrev på nytt, og Weft leser fabricen tilbake; har fabricen den planen, er innføringen fullført, ellers legges sikkerhetskopiene tilbake og verifiseres.
Rull tilbake: sikkerhetskopiene legges tilbake med en gang og verifiseres.</translation>
    </message>
    <message>
        <location filename="../views/review/CommitJournalDialog.cpp" line="133"/>
        <source>The recovery&apos;s steps appear here.</source>
        <translation>Stegene i gjenopprettingen vises her.</translation>
    </message>
    <message>
        <location filename="../views/review/CommitJournalDialog.cpp" line="134"/>
        <source>&amp;Verify the Fabric (Roll Back If It Does Not Hold)</source>
        <translation>&amp;Verifiser fabricen (rull tilbake om den ikke holder)</translation>
    </message>
    <message>
        <location filename="../views/review/CommitJournalDialog.cpp" line="136"/>
        <source>&amp;Roll Back to the Backups</source>
        <translation>&amp;Rull tilbake til sikkerhetskopiene</translation>
    </message>
    <message>
        <location filename="../views/review/CommitJournalDialog.cpp" line="138"/>
        <source>&amp;Leave It for Now</source>
        <translation>&amp;La den ligge inntil videre</translation>
    </message>
    <message>
        <location filename="../views/review/CommitJournalDialog.cpp" line="172"/>
        <source>Recovering…</source>
        <translation>Gjenoppretter …</translation>
    </message>
    <message>
        <location filename="../views/review/CommitJournalDialog.cpp" line="172"/>
        <source>Rolling back…</source>
        <translation>Ruller tilbake…</translation>
    </message>
    <message>
        <location filename="../views/review/CommitJournalDialog.cpp" line="194"/>
        <source>&amp;Close</source>
        <translation>&amp;Lukk</translation>
    </message>
</context>
<context>
    <name>weft::CommitTargetDialog</name>
    <message>
        <location filename="../views/review/CommitTargetDialog.cpp" line="53"/>
        <location filename="../views/review/CommitTargetDialog.cpp" line="252"/>
        <source>Commit Target</source>
        <translation>Mål for innføring</translation>
    </message>
    <message>
        <location filename="../views/review/CommitTargetDialog.cpp" line="66"/>
        <source>One OpenSM</source>
        <translation>Én OpenSM</translation>
    </message>
    <message>
        <location filename="../views/review/CommitTargetDialog.cpp" line="68"/>
        <source>The files of an OpenSM routing with Weft&apos;s engine inside it (event_plugin_name weftosm, routing_engine weft): its intent (event_plugin_options) and -P PARTITIONS; or of one started with -R file -U LFTS -P PARTITIONS. Leave the intent and the dump empty to write plan files instead.</source>
        <translation>Filene til en OpenSM som ruter med Wefts motor inne i seg (event_plugin_name weftosm, routing_engine weft): intensjonen (event_plugin_options) og -P PARTITIONS; eller til en som er startet med -R file -U LFTS -P PARTITIONS. La intensjonen og dumpen stå tomme for å skrive planfiler i stedet.</translation>
    </message>
    <message>
        <location filename="../views/review/CommitTargetDialog.cpp" line="74"/>
        <source>Intent (event_plugin_options):</source>
        <translation>Intensjon (event_plugin_options):</translation>
    </message>
    <message>
        <location filename="../views/review/CommitTargetDialog.cpp" line="75"/>
        <source>LFT dump (-U, the file engine):</source>
        <translation>LFT-dump (-U, filmotoren):</translation>
    </message>
    <message>
        <location filename="../views/review/CommitTargetDialog.cpp" line="76"/>
        <source>partitions.conf (-P):</source>
        <translation>partitions.conf (-P):</translation>
    </message>
    <message>
        <location filename="../views/review/CommitTargetDialog.cpp" line="77"/>
        <source>OpenSM pid file:</source>
        <translation>OpenSMs pid-fil:</translation>
    </message>
    <message>
        <location filename="../views/review/CommitTargetDialog.cpp" line="78"/>
        <source>OpenSM log (optional):</source>
        <translation>OpenSMs logg (valgfri):</translation>
    </message>
    <message>
        <location filename="../views/review/CommitTargetDialog.cpp" line="79"/>
        <source>OpenSM options file (-F; needed for service levels):</source>
        <translation>OpenSM-innstillingsfil (-F; trengs for tjenestenivåer):</translation>
    </message>
    <message>
        <location filename="../views/review/CommitTargetDialog.cpp" line="82"/>
        <source>A subnet with several subnet managers</source>
        <translation>Et subnett med flere subnet-managere</translation>
    </message>
    <message>
        <location filename="../views/review/CommitTargetDialog.cpp" line="83"/>
        <source>A subnet target file names every OpenSM of the subnet, each with its own files (the file `weft commit --target` reads). While one is set, Approve commits through the SM that is master and writes the same plan into every other SM&apos;s files; the OpenSM above is kept for when the file is cleared.</source>
        <translation>En subnettmålfil navngir hver OpenSM i subnettet, hver med sine egne filer (filen `weft commit --target` leser). Mens en slik er satt, innfører Godkjenn gjennom SM-en som er master, og skriver den samme planen inn i filene til hver av de andre SM-ene; OpenSM-en ovenfor tas vare på til bruk når filen fjernes.</translation>
    </message>
    <message>
        <location filename="../views/review/CommitTargetDialog.cpp" line="91"/>
        <source>none: commits go to the one OpenSM above</source>
        <translation>ingen: innføringer går til den ene OpenSM-en ovenfor</translation>
    </message>
    <message>
        <location filename="../views/review/CommitTargetDialog.cpp" line="93"/>
        <source>&amp;Browse…</source>
        <translation>&amp;Bla gjennom …</translation>
    </message>
    <message>
        <location filename="../views/review/CommitTargetDialog.cpp" line="104"/>
        <source>Weft&apos;s engine inside each OpenSM (an intent per SM)</source>
        <translation>Wefts motor inne i hver OpenSM (én intensjon per SM)</translation>
    </message>
    <message>
        <location filename="../views/review/CommitTargetDialog.cpp" line="105"/>
        <source>OpenSM&apos;s file engine (an LFT dump per SM, -U)</source>
        <translation>OpenSMs filmotor (én LFT-dump per SM, -U)</translation>
    </message>
    <message>
        <location filename="../views/review/CommitTargetDialog.cpp" line="115"/>
        <source>&amp;Add SM</source>
        <translation>Legg &amp;til SM</translation>
    </message>
    <message>
        <location filename="../views/review/CommitTargetDialog.cpp" line="117"/>
        <source>&amp;Remove SM</source>
        <translation>&amp;Fjern SM</translation>
    </message>
    <message>
        <location filename="../views/review/CommitTargetDialog.cpp" line="119"/>
        <source>&amp;Save</source>
        <translation>&amp;Lagre</translation>
    </message>
    <message>
        <location filename="../views/review/CommitTargetDialog.cpp" line="121"/>
        <source>Write the SMs to the subnet target file</source>
        <translation>Skriv SM-ene til subnettmålfilen</translation>
    </message>
    <message>
        <location filename="../views/review/CommitTargetDialog.cpp" line="124"/>
        <source>Subnet name:</source>
        <translation>Subnettnavn:</translation>
    </message>
    <message>
        <location filename="../views/review/CommitTargetDialog.cpp" line="125"/>
        <source>Routing:</source>
        <translation>Ruting:</translation>
    </message>
    <message>
        <location filename="../views/review/CommitTargetDialog.cpp" line="140"/>
        <source>Subnet target file (all the subnet&apos;s SMs):</source>
        <translation>Subnettmålfil (alle subnettets SM-er):</translation>
    </message>
    <message>
        <location filename="../views/review/CommitTargetDialog.cpp" line="208"/>
        <source>Name</source>
        <translation>Navn</translation>
    </message>
    <message>
        <location filename="../views/review/CommitTargetDialog.cpp" line="208"/>
        <source>Options file (-F)</source>
        <translation>Innstillingsfil (-F)</translation>
    </message>
    <message>
        <location filename="../views/review/CommitTargetDialog.cpp" line="209"/>
        <source>LFT dump (-U)</source>
        <translation>LFT-dump (-U)</translation>
    </message>
    <message>
        <location filename="../views/review/CommitTargetDialog.cpp" line="209"/>
        <source>Intent</source>
        <translation>Intensjon</translation>
    </message>
    <message>
        <location filename="../views/review/CommitTargetDialog.cpp" line="210"/>
        <source>partitions.conf (-P)</source>
        <translation>partitions.conf (-P)</translation>
    </message>
    <message>
        <location filename="../views/review/CommitTargetDialog.cpp" line="210"/>
        <source>Pid file</source>
        <translation>Pid-fil</translation>
    </message>
    <message>
        <location filename="../views/review/CommitTargetDialog.cpp" line="210"/>
        <source>Log (optional)</source>
        <translation>Logg (valgfri)</translation>
    </message>
    <message>
        <location filename="../views/review/CommitTargetDialog.cpp" line="210"/>
        <source>Port GUID (optional)</source>
        <translation>Port-GUID (valgfri)</translation>
    </message>
    <message>
        <location filename="../views/review/CommitTargetDialog.cpp" line="222"/>
        <source>Subnet Target File</source>
        <translation>Subnettmålfil</translation>
    </message>
    <message>
        <location filename="../views/review/CommitTargetDialog.cpp" line="222"/>
        <source>Subnet targets (*.json);;All files (*)</source>
        <translation>Subnettmål (*.json);;Alle filer (*)</translation>
    </message>
    <message>
        <location filename="../views/review/CommitTargetDialog.cpp" line="247"/>
        <source>%1 does not exist yet: add its SMs, then Save creates it.</source>
        <translation>%1 finnes ikke ennå: legg til SM-ene, så oppretter Lagre filen.</translation>
    </message>
    <message>
        <location filename="../views/review/CommitTargetDialog.cpp" line="253"/>
        <source>The SMs edited here are not saved. Read %1 instead and drop the edits?</source>
        <translation>SM-ene som er redigert her, er ikke lagret. Vil du lese %1 i stedet og forkaste endringene?</translation>
    </message>
    <message>
        <location filename="../views/review/CommitTargetDialog.cpp" line="266"/>
        <source>Not a subnet target: %1</source>
        <translation>Ikke et subnettmål: %1</translation>
    </message>
    <message>
        <location filename="../views/review/CommitTargetDialog.cpp" line="316"/>
        <source>Name the subnet target file first.</source>
        <translation>Gi subnettmålfilen et navn først.</translation>
    </message>
    <message>
        <location filename="../views/review/CommitTargetDialog.cpp" line="338"/>
        <location filename="../views/review/CommitTargetDialog.cpp" line="342"/>
        <source>Not saved: %1</source>
        <translation>Ikke lagret: %1</translation>
    </message>
    <message numerus="yes">
        <location filename="../views/review/CommitTargetDialog.cpp" line="349"/>
        <source>Saved %1: %n SM(s).</source>
        <translation>
            <numerusform>Lagret %1: %n SM.</numerusform>
            <numerusform>Lagret %1: %n SM-er.</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../views/review/CommitTargetDialog.cpp" line="371"/>
        <location filename="../views/review/CommitTargetDialog.cpp" line="377"/>
        <source>The subnet target cannot be used: %1</source>
        <translation>Subnettmålet kan ikke brukes: %1</translation>
    </message>
</context>
<context>
    <name>weft::DiffReview</name>
    <message>
        <location filename="../views/review/DiffReview.cpp" line="125"/>
        <source>Switch</source>
        <translation>Svitsj</translation>
    </message>
    <message>
        <location filename="../views/review/DiffReview.cpp" line="125"/>
        <source>LID</source>
        <translation>LID</translation>
    </message>
    <message>
        <location filename="../views/review/DiffReview.cpp" line="125"/>
        <source>Entries changed</source>
        <translation>Endrede oppføringer</translation>
    </message>
    <message>
        <location filename="../views/review/DiffReview.cpp" line="125"/>
        <source>Blocks sent</source>
        <translation>Blokker sendt</translation>
    </message>
    <message>
        <location filename="../views/review/DiffReview.cpp" line="125"/>
        <source>SMPs</source>
        <translation>SMP-er</translation>
    </message>
    <message>
        <location filename="../views/review/DiffReview.cpp" line="138"/>
        <source>partitions.conf does not change.</source>
        <translation>partitions.conf endres ikke.</translation>
    </message>
    <message>
        <location filename="../views/review/DiffReview.cpp" line="142"/>
        <source>The commit report appears here after Approve.</source>
        <translation>Rapporten fra innføringen vises her etter Godkjenn.</translation>
    </message>
    <message>
        <location filename="../views/review/DiffReview.cpp" line="148"/>
        <source>Partition</source>
        <translation>Partisjon</translation>
    </message>
    <message>
        <location filename="../views/review/DiffReview.cpp" line="148"/>
        <source>Policy</source>
        <translation>Policy</translation>
    </message>
    <message>
        <location filename="../views/review/DiffReview.cpp" line="148"/>
        <source>Met</source>
        <translation>Oppfylt</translation>
    </message>
    <message>
        <location filename="../views/review/DiffReview.cpp" line="148"/>
        <source>SL</source>
        <translation>SL</translation>
    </message>
    <message>
        <location filename="../views/review/DiffReview.cpp" line="148"/>
        <source>VL</source>
        <translation>VL</translation>
    </message>
    <message>
        <location filename="../views/review/DiffReview.cpp" line="154"/>
        <source>The VL is the one the commit has OpenSM map the SL to (QoS); without QoS OpenSM keeps every partition on SL 0.</source>
        <translation>VL er den som innføringen får OpenSM til å knytte SL-en til (QoS); uten QoS holder OpenSM alle partisjoner på SL 0.</translation>
    </message>
    <message>
        <location filename="../views/review/DiffReview.cpp" line="159"/>
        <source>&amp;Approve…</source>
        <translation>&amp;Godkjenn …</translation>
    </message>
    <message>
        <location filename="../views/review/DiffReview.cpp" line="161"/>
        <source>Commit &amp;Target…</source>
        <translation>&amp;Mål for innføring …</translation>
    </message>
    <message>
        <location filename="../views/review/DiffReview.cpp" line="239"/>
        <source>GUID 0x%1; blocks %2</source>
        <translation>GUID 0x%1; blokker %2</translation>
    </message>
    <message>
        <location filename="../views/review/DiffReview.cpp" line="302"/>
        <source>yes</source>
        <translation>ja</translation>
    </message>
    <message numerus="yes">
        <location filename="../views/review/DiffReview.cpp" line="302"/>
        <source>no: %n violation(s)</source>
        <translation>
            <numerusform>nei: %n brudd</numerusform>
            <numerusform>nei: %n brudd</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../views/review/DiffReview.cpp" line="316"/>
        <source>Strict mode: %n isolation violation(s) block the commit</source>
        <translation>
            <numerusform>Streng modus: %n isolasjonsbrudd stopper innføringen</numerusform>
            <numerusform>Streng modus: %n isolasjonsbrudd stopper innføringen</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../views/review/DiffReview.cpp" line="317"/>
        <source>Accept %n isolation violation(s)</source>
        <translation>
            <numerusform>Godta %n isolasjonsbrudd</numerusform>
            <numerusform>Godta %n isolasjonsbrudd</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../views/review/DiffReview.cpp" line="376"/>
        <source>OpenSM runs on %1.</source>
        <translation>OpenSM kjører på %1.</translation>
    </message>
    <message numerus="yes">
        <location filename="../views/review/DiffReview.cpp" line="365"/>
        <source>%n switch(es) change</source>
        <translation>
            <numerusform>%n svitsj endres</numerusform>
            <numerusform>%n svitsjer endres</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../views/review/DiffReview.cpp" line="366"/>
        <source>%1 LFT entries in %2 blocks, %3 P_Key blocks; OpenSM sends %4 SMPs.</source>
        <translation>%1 LFT-oppføringer i %2 blokker, %3 P_Key-blokker; OpenSM sender %4 SMP-er.</translation>
    </message>
    <message>
        <location filename="../views/review/DiffReview.cpp" line="372"/>
        <source>No current tables are known: every switch is counted as starting empty.</source>
        <translation>Ingen gjeldende tabeller er kjent: hver svitsj regnes som tom fra start.</translation>
    </message>
    <message>
        <location filename="../views/review/DiffReview.cpp" line="404"/>
        <source>No commit target: Approve writes the plan files.</source>
        <translation>Ikke noe mål for innføring: Godkjenn skriver planfilene.</translation>
    </message>
    <message>
        <location filename="../views/review/DiffReview.cpp" line="417"/>
        <source>there is no plan to write</source>
        <translation>det finnes ingen plan å skrive</translation>
    </message>
    <message>
        <location filename="../views/review/DiffReview.cpp" line="430"/>
        <source>Plan written to %1: plan.lfts (load with opensm -R file -U) and partitions.conf.</source>
        <translation>Planen er skrevet til %1: plan.lfts (lastes med opensm -R file -U) og partitions.conf.</translation>
    </message>
    <message>
        <location filename="../views/review/DiffReview.cpp" line="351"/>
        <location filename="../views/review/DiffReview.cpp" line="447"/>
        <location filename="../views/review/DiffReview.cpp" line="483"/>
        <source>Approve refused: %1</source>
        <translation>Godkjenning avvist: %1</translation>
    </message>
    <message>
        <location filename="../views/review/DiffReview.cpp" line="274"/>
        <source>Run a routing preview (or review a studio candidate) to see what it would change.</source>
        <translation>Kjør en forhåndsvisning av ruting (eller gå gjennom en kandidat fra studioet) for å se hva den ville endre.</translation>
    </message>
    <message>
        <location filename="../views/review/DiffReview.cpp" line="326"/>
        <source>there is no plan to approve</source>
        <translation>det finnes ingen plan å godkjenne</translation>
    </message>
    <message numerus="yes">
        <location filename="../views/review/DiffReview.cpp" line="330"/>
        <source>strict mode: %n isolation violation(s) block the commit</source>
        <translation>
            <numerusform>streng modus: %n isolasjonsbrudd stopper innføringen</numerusform>
            <numerusform>streng modus: %n isolasjonsbrudd stopper innføringen</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../views/review/DiffReview.cpp" line="332"/>
        <source>accept the %n isolation violation(s) first</source>
        <translation>
            <numerusform>godta først %n isolasjonsbrudd</numerusform>
            <numerusform>godta først de %n isolasjonsbruddene</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../views/review/DiffReview.cpp" line="355"/>
        <source>Install this plan: OpenSM reloads its files, Weft reads every table back and rolls back on a mismatch</source>
        <translation>Innfør denne planen: OpenSM laster filene sine på nytt, Weft leser alle tabellene tilbake og ruller tilbake ved avvik</translation>
    </message>
    <message>
        <location filename="../views/review/DiffReview.cpp" line="374"/>
        <source>Counted against the tables and P_Key tables %1.</source>
        <translation>Regnet mot tabellene og P_Key-tabellene %1.</translation>
    </message>
    <message>
        <location filename="../views/review/DiffReview.cpp" line="377"/>
        <source>OpenSM&apos;s port was not found: the P_Key figures assume no port is SELF.</source>
        <translation>Porten til OpenSM ble ikke funnet: P_Key-tallene forutsetter at ingen port er SELF.</translation>
    </message>
    <message>
        <location filename="../views/review/DiffReview.cpp" line="379"/>
        <source>Counted against %1; the P_Key tables are assumed to be those OpenSM programs for the partitions as opened.</source>
        <translation>Regnet mot %1; P_Key-tabellene antas å være dem OpenSM programmerer for partisjonene slik de ble åpnet.</translation>
    </message>
    <message>
        <location filename="../views/review/DiffReview.cpp" line="383"/>
        <source>Made for a what-if (%1): Approve installs it only as a pre-emptive plan, valid on the fabric as it is.</source>
        <translation>Laget for et hva-om-scenario (%1): Godkjenn innfører den bare som en forebyggende plan, gyldig på fabricen slik den er.</translation>
    </message>
    <message>
        <location filename="../views/review/DiffReview.cpp" line="400"/>
        <source>Commit target: %1</source>
        <translation>Mål for innføring: %1</translation>
    </message>
    <message>
        <location filename="../views/review/DiffReview.cpp" line="402"/>
        <source>Commit target: %1, through %2</source>
        <translation>Mål for innføring: %1, gjennom %2</translation>
    </message>
    <message>
        <location filename="../views/review/DiffReview.cpp" line="406"/>
        <source>Commit target: Weft&apos;s engine inside OpenSM, intent %1 and %2, through %3</source>
        <translation>Mål for innføring: Wefts motor inne i OpenSM, intensjon %1 og %2, gjennom %3</translation>
    </message>
    <message>
        <location filename="../views/review/DiffReview.cpp" line="409"/>
        <source>Commit target: %1 and %2, through %3</source>
        <translation>Mål for innføring: %1 og %2, gjennom %3</translation>
    </message>
    <message>
        <location filename="../views/review/DiffReview.cpp" line="398"/>
        <source>the first adapter</source>
        <translation>den første adapteren</translation>
    </message>
    <message>
        <location filename="../views/review/DiffReview.cpp" line="453"/>
        <source>Write the Plan Files To</source>
        <translation>Skriv planfilene til</translation>
    </message>
    <message>
        <location filename="../views/review/DiffReview.cpp" line="459"/>
        <source>Cannot Write the Plan</source>
        <translation>Kan ikke skrive planen</translation>
    </message>
    <message>
        <location filename="../views/review/DiffReview.cpp" line="464"/>
        <source>Approve refused: %1
Recover it first (Fabric &gt; Recover Unfinished Commit…).</source>
        <translation>Godkjenn avvist: %1
Gjenopprett den først (Fabric &gt; Gjenopprett ufullført innføring …).</translation>
    </message>
    <message>
        <location filename="../views/review/DiffReview.cpp" line="469"/>
        <source>Install this plan on every SM of %1 now?

%2

The SM that is master reloads its files, every other SM gets the same files; Weft reads the tables back and rolls every SM back on a mismatch.</source>
        <translation>Vil du innføre denne planen på hver SM i %1 nå?

%2

SM-en som er master, laster filene sine på nytt, hver av de andre SM-ene får de samme filene; Weft leser tabellene tilbake og ruller hver SM tilbake ved avvik.</translation>
    </message>
    <message>
        <location filename="../views/review/DiffReview.cpp" line="472"/>
        <source>Install this plan on the fabric now?

%1

OpenSM reloads %2 and %3; Weft reads the tables back and rolls back on a mismatch.</source>
        <translation>Vil du innføre denne planen i nettet nå?

%1

OpenSM laster %2 og %3 på nytt; Weft leser tabellene tilbake og ruller tilbake ved avvik.</translation>
    </message>
    <message numerus="yes">
        <location filename="../views/review/DiffReview.cpp" line="475"/>
        <source>You accept %n isolation violation(s):</source>
        <translation>
            <numerusform>Du godtar %n isolasjonsbrudd:</numerusform>
            <numerusform>Du godtar %n isolasjonsbrudd:</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../views/review/DiffReview.cpp" line="478"/>
        <source>Approve the Plan</source>
        <translation>Godkjenn planen</translation>
    </message>
</context>
<context>
    <name>weft::DiscoveryDialog</name>
    <message>
        <location filename="../views/live/DiscoveryDialog.cpp" line="18"/>
        <source>Discover the Fabric</source>
        <translation>Oppdag fabricen</translation>
    </message>
    <message>
        <location filename="../views/live/DiscoveryDialog.cpp" line="27"/>
        <source>Weft reads the subnet as ibnetdiscover does, then every switch&apos;s forwarding table and the ports&apos; P_Key tables, through this port:</source>
        <translation>Weft leser subnettet slik ibnetdiscover gjør, deretter hver svitsjs videresendingstabell og portenes P_Key-tabeller, gjennom denne porten:</translation>
    </message>
    <message>
        <location filename="../views/live/DiscoveryDialog.cpp" line="32"/>
        <source>&amp;Discover</source>
        <translation>&amp;Oppdag</translation>
    </message>
    <message>
        <location filename="../views/live/DiscoveryDialog.cpp" line="38"/>
        <source>&amp;Adapter:</source>
        <translation>&amp;Adapter:</translation>
    </message>
    <message>
        <location filename="../views/live/DiscoveryDialog.cpp" line="39"/>
        <source>&amp;Port:</source>
        <translation>&amp;Port:</translation>
    </message>
    <message>
        <location filename="../views/live/DiscoveryDialog.cpp" line="71"/>
        <source>First active port</source>
        <translation>Første aktive port</translation>
    </message>
    <message>
        <location filename="../views/live/DiscoveryDialog.cpp" line="73"/>
        <source>Port %1 (active, LID %2)</source>
        <translation>Port %1 (aktiv, LID %2)</translation>
    </message>
    <message>
        <location filename="../views/live/DiscoveryDialog.cpp" line="74"/>
        <source>Port %1 (not active)</source>
        <translation>Port %1 (ikke aktiv)</translation>
    </message>
</context>
<context>
    <name>weft::FabricChangesPanel</name>
    <message>
        <location filename="../views/live/FabricChangesPanel.cpp" line="82"/>
        <source>Links gone (%1)</source>
        <translation>Forsvunne lenker (%1)</translation>
    </message>
    <message>
        <location filename="../views/live/FabricChangesPanel.cpp" line="83"/>
        <source>New links (%1)</source>
        <translation>Nye lenker (%1)</translation>
    </message>
    <message>
        <location filename="../views/live/FabricChangesPanel.cpp" line="84"/>
        <source>Nodes gone (%1)</source>
        <translation>Forsvunne noder (%1)</translation>
    </message>
    <message>
        <location filename="../views/live/FabricChangesPanel.cpp" line="85"/>
        <source>New nodes (%1)</source>
        <translation>Nye noder (%1)</translation>
    </message>
    <message>
        <location filename="../views/live/FabricChangesPanel.cpp" line="86"/>
        <source>LIDs moved (%1)</source>
        <translation>Flyttede LID-er (%1)</translation>
    </message>
    <message>
        <location filename="../views/live/FabricChangesPanel.cpp" line="88"/>
        <source>Fabric &gt; Rediscover lists here what changed in the live fabric since it was discovered.</source>
        <translation>Fabric &gt; Oppdag på nytt viser her hva som er endret i den levende fabricen siden den ble oppdaget.</translation>
    </message>
    <message>
        <location filename="../views/live/FabricChangesPanel.cpp" line="89"/>
        <source>The live fabric changed since it was discovered; the map marks the cables. Open proposals are stale: discover again to plan on the fabric as it is.</source>
        <translation>Den levende fabricen er endret siden den ble oppdaget; kartet markerer kablene. Åpne forslag er utdaterte: oppdag på nytt for å planlegge på fabricen slik den er.</translation>
    </message>
</context>
<context>
    <name>weft::FabricDocument</name>
    <message>
        <location filename="../views/document/FabricDocument.cpp" line="26"/>
        <source>Live fabric (%1)</source>
        <translation>Levende fabric (%1)</translation>
    </message>
    <message>
        <location filename="../views/document/FabricDocument.cpp" line="121"/>
        <source>A partition needs a name.</source>
        <translation>En partisjon må ha et navn.</translation>
    </message>
    <message>
        <location filename="../views/document/FabricDocument.cpp" line="127"/>
        <source>The partition name &quot;%1&quot; contains &quot;%2&quot;; use letters, digits, &apos;-&apos;, &apos;_&apos; or &apos;.&apos;.</source>
        <translation>Partisjonsnavnet «%1» inneholder «%2»; bruk bokstaver, sifre, &apos;-&apos;, &apos;_&apos; eller &apos;.&apos;.</translation>
    </message>
    <message>
        <location filename="../views/document/FabricDocument.cpp" line="128"/>
        <source>a space</source>
        <translation>et mellomrom</translation>
    </message>
    <message>
        <location filename="../views/document/FabricDocument.cpp" line="132"/>
        <source>A partition named &quot;%1&quot; already exists (P_Key %2).</source>
        <translation>Det finnes allerede en partisjon med navnet «%1» (P_Key %2).</translation>
    </message>
    <message>
        <location filename="../views/document/FabricDocument.cpp" line="133"/>
        <source>automatic</source>
        <translation>automatisk</translation>
    </message>
    <message>
        <location filename="../views/document/FabricDocument.cpp" line="142"/>
        <location filename="../views/document/FabricDocument.cpp" line="273"/>
        <source>P_Key 0x0000 names no partition; use 0x0001 to 0x7fff.</source>
        <translation>P_Key 0x0000 betegner ingen partisjon; bruk 0x0001 til 0x7fff.</translation>
    </message>
    <message>
        <location filename="../views/document/FabricDocument.cpp" line="144"/>
        <source>P_Key %1 is already used by partition &quot;%2&quot;.</source>
        <translation>P_Key %1 brukes allerede av partisjonen «%2».</translation>
    </message>
    <message>
        <location filename="../views/document/FabricDocument.cpp" line="158"/>
        <source>There is no partition with P_Key %1.</source>
        <translation>Det finnes ingen partisjon med P_Key %1.</translation>
    </message>
    <message>
        <location filename="../views/document/FabricDocument.cpp" line="200"/>
        <source>no fabric is loaded to apply weights to</source>
        <translation>ingen fabric er lastet inn som vektene kan brukes på</translation>
    </message>
    <message>
        <location filename="../views/document/FabricDocument.cpp" line="203"/>
        <source>cannot read: %1</source>
        <translation>kan ikke leses: %1</translation>
    </message>
    <message>
        <location filename="../views/document/FabricDocument.cpp" line="239"/>
        <source>no fabric is loaded to bind the project to</source>
        <translation>ingen fabric er lastet inn som prosjektet kan knyttes til</translation>
    </message>
    <message>
        <location filename="../views/document/FabricDocument.cpp" line="261"/>
        <source>Enter a P_Key, such as 0x0012.</source>
        <translation>Skriv inn en P_Key, for eksempel 0x0012.</translation>
    </message>
    <message>
        <location filename="../views/document/FabricDocument.cpp" line="267"/>
        <source>&quot;%1&quot; is not a P_Key; write it in hex with 0x (0x0012) or in decimal.</source>
        <translation>«%1» er ikke en P_Key; skriv den heksadesimalt med 0x (0x0012) eller desimalt.</translation>
    </message>
    <message>
        <location filename="../views/document/FabricDocument.cpp" line="271"/>
        <source>P_Key %1 is wider than 16 bits.</source>
        <translation>P_Key %1 er bredere enn 16 biter.</translation>
    </message>
</context>
<context>
    <name>weft::FabricMenu</name>
    <message>
        <location filename="../app/gui/FabricMenu.cpp" line="38"/>
        <source>F&amp;abric</source>
        <translation>F&amp;abric</translation>
    </message>
    <message>
        <location filename="../app/gui/FabricMenu.cpp" line="39"/>
        <source>&amp;Discover…</source>
        <translation>&amp;Oppdag …</translation>
    </message>
    <message>
        <location filename="../app/gui/FabricMenu.cpp" line="41"/>
        <source>Read the live fabric through a local adapter: topology, forwarding tables and P_Key tables</source>
        <translation>Les den levende fabricen gjennom en lokal adapter: topologi, videresendingstabeller og P_Key-tabeller</translation>
    </message>
    <message>
        <location filename="../app/gui/FabricMenu.cpp" line="42"/>
        <source>R&amp;ediscover</source>
        <translation>Oppdag på &amp;nytt</translation>
    </message>
    <message>
        <location filename="../app/gui/FabricMenu.cpp" line="46"/>
        <source>Discover again: what changed since, or the tables the switches hold now</source>
        <translation>Oppdag på nytt: hva som er endret siden sist, eller tabellene svitsjene har nå</translation>
    </message>
    <message>
        <location filename="../app/gui/FabricMenu.cpp" line="48"/>
        <source>&amp;Sample Port Counters</source>
        <translation>&amp;Les porttellere</translation>
    </message>
    <message>
        <location filename="../app/gui/FabricMenu.cpp" line="61"/>
        <source>Port Counter &amp;Interval…</source>
        <translation>&amp;Intervall for porttellere …</translation>
    </message>
    <message>
        <location filename="../app/gui/FabricMenu.cpp" line="63"/>
        <source>Port Counter Interval</source>
        <translation>Intervall for porttellere</translation>
    </message>
    <message>
        <location filename="../app/gui/FabricMenu.cpp" line="63"/>
        <source>Seconds between readings:</source>
        <translation>Sekunder mellom avlesninger:</translation>
    </message>
    <message>
        <location filename="../app/gui/FabricMenu.cpp" line="69"/>
        <source>&amp;Clear Counters Past 75 %</source>
        <translation>N&amp;ullstill tellere over 75 %</translation>
    </message>
    <message>
        <location filename="../app/gui/FabricMenu.cpp" line="72"/>
        <source>Clear a port&apos;s 32-bit port counters once one passes 75 % of its range, as OpenSM&apos;s perfmgr does</source>
        <translation>Nullstill portens 32-biters porttellere når én av dem passerer 75 % av verdiområdet sitt, slik OpenSMs perfmgr gjør</translation>
    </message>
    <message>
        <location filename="../app/gui/FabricMenu.cpp" line="76"/>
        <source>&amp;Preview Routing</source>
        <translation>&amp;Forhåndsvis ruting</translation>
    </message>
    <message>
        <location filename="../app/gui/FabricMenu.cpp" line="81"/>
        <source>&amp;Review Changes</source>
        <translation>&amp;Gå gjennom endringer</translation>
    </message>
    <message>
        <location filename="../app/gui/FabricMenu.cpp" line="83"/>
        <source>&amp;Approve…</source>
        <translation>Go&amp;dkjenn …</translation>
    </message>
    <message>
        <location filename="../app/gui/FabricMenu.cpp" line="84"/>
        <source>Commit &amp;Target…</source>
        <translation>&amp;Mål for innføring …</translation>
    </message>
    <message>
        <location filename="../app/gui/FabricMenu.cpp" line="86"/>
        <source>Commit &amp;Journal…</source>
        <translation>&amp;Commit-logg …</translation>
    </message>
    <message>
        <location filename="../app/gui/FabricMenu.cpp" line="87"/>
        <source>&amp;Recover Unfinished Commit…</source>
        <translation>Gjenopp&amp;rett ufullført innføring …</translation>
    </message>
    <message>
        <location filename="../app/gui/FabricMenu.cpp" line="89"/>
        <source>No unfinished commit on the commit target.</source>
        <translation>Ingen ufullført innføring på målet for innføring.</translation>
    </message>
    <message>
        <location filename="../app/gui/FabricMenu.cpp" line="118"/>
        <source>the files of every SM of %1</source>
        <translation>filene til hver SM i %1</translation>
    </message>
    <message>
        <location filename="../app/gui/FabricMenu.cpp" line="119"/>
        <source>%1 and %2</source>
        <translation>%1 og %2</translation>
    </message>
    <message>
        <location filename="../app/gui/FabricMenu.cpp" line="124"/>
        <source>Recovery: %1</source>
        <translation>Gjenoppretting: %1</translation>
    </message>
    <message>
        <location filename="../app/gui/FabricMenu.cpp" line="139"/>
        <source>Open Commit Journal</source>
        <translation>Åpne commit-logg</translation>
    </message>
    <message>
        <location filename="../app/gui/FabricMenu.cpp" line="139"/>
        <source>Commit journals (*.jsonl);;All files (*)</source>
        <translation>Commit-logger (*.jsonl);;Alle filer (*)</translation>
    </message>
    <message>
        <location filename="../app/gui/FabricMenu.cpp" line="148"/>
        <source>Commit Journal</source>
        <translation>Commit-logg</translation>
    </message>
    <message>
        <location filename="../app/gui/FabricMenu.cpp" line="148"/>
        <source>Cannot read the commit journal:
%1</source>
        <translation>Kan ikke lese commit-loggen:
%1</translation>
    </message>
    <message>
        <location filename="../app/gui/FabricMenu.cpp" line="160"/>
        <source>Discovering replaces the fabric shown.</source>
        <translation>Oppdagelsen erstatter fabricen som vises.</translation>
    </message>
    <message>
        <location filename="../app/gui/FabricMenu.cpp" line="180"/>
        <source>Discovering the fabric again…</source>
        <translation>Oppdager fabricen på nytt …</translation>
    </message>
    <message>
        <location filename="../app/gui/FabricMenu.cpp" line="180"/>
        <source>Discovering the fabric…</source>
        <translation>Oppdager fabricen …</translation>
    </message>
    <message>
        <location filename="../app/gui/FabricMenu.cpp" line="181"/>
        <source>Cancel</source>
        <translation>Avbryt</translation>
    </message>
    <message>
        <location filename="../app/gui/FabricMenu.cpp" line="183"/>
        <source>Discover</source>
        <translation>Oppdag</translation>
    </message>
    <message>
        <location filename="../app/gui/FabricMenu.cpp" line="211"/>
        <source>Cannot Discover the Fabric</source>
        <translation>Kan ikke oppdage fabricen</translation>
    </message>
    <message>
        <location filename="../app/gui/FabricMenu.cpp" line="212"/>
        <source>The fabric could not be read. What is shown is unchanged.</source>
        <translation>Fabricen kunne ikke leses. Det som vises, er uendret.</translation>
    </message>
    <message numerus="yes">
        <location filename="../app/gui/FabricMenu.cpp" line="223"/>
        <source>Rediscovered: the fabric changed (%n change(s)); open proposals are stale</source>
        <translation>
            <numerusform>Oppdaget på nytt: fabricen er endret (%n endring); åpne forslag er utdaterte</numerusform>
            <numerusform>Oppdaget på nytt: fabricen er endret (%n endringer); åpne forslag er utdaterte</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../app/gui/FabricMenu.cpp" line="224"/>
        <source>Rediscovered: the topology and the tables are as they were</source>
        <translation>Oppdaget på nytt: topologien og tabellene er som før</translation>
    </message>
    <message>
        <location filename="../app/gui/FabricMenu.cpp" line="225"/>
        <source>Rediscovered: the topology is as it was; %1</source>
        <translation>Oppdaget på nytt: topologien er som før; %1</translation>
    </message>
    <message numerus="yes">
        <location filename="../app/gui/FabricMenu.cpp" line="229"/>
        <source>Discovered %n node(s) through %1; the tables and partitions are those the fabric holds</source>
        <translation>
            <numerusform>Oppdaget %n node gjennom %1; tabellene og partisjonene er dem fabricen har</numerusform>
            <numerusform>Oppdaget %n noder gjennom %1; tabellene og partisjonene er dem fabricen har</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../app/gui/FabricMenu.cpp" line="249"/>
        <source>Read every linked port&apos;s counters every %1 s and show the rates on the map and in the Telemetry dock</source>
        <translation>Les tellerne til alle tilkoblede porter med %1 s mellomrom, og vis ratene på kartet og i Telemetri-panelet</translation>
    </message>
    <message>
        <location filename="../app/gui/FabricMenu.cpp" line="251"/>
        <source>Port counters can only be read from a live fabric: use Fabric ▸ Discover first</source>
        <translation>Porttellere kan bare leses fra en levende fabric: bruk Fabric ▸ Oppdag først</translation>
    </message>
    <message>
        <location filename="../app/gui/FabricMenu.cpp" line="269"/>
        <source>Reading port counters every %1 s: the first reading primes the counters, the first rates follow one interval later</source>
        <translation>Leser porttellere med %1 s mellomrom: den første avlesningen gir utgangsverdiene, de første ratene kommer ett intervall senere</translation>
    </message>
</context>
<context>
    <name>weft::FabricScene</name>
    <message numerus="yes">
        <location filename="../views/scene/FabricScene.cpp" line="655"/>
        <source>Chassis %1: %n switch(es)</source>
        <translation>
            <numerusform>Chassis %1: %n svitsj</numerusform>
            <numerusform>Chassis %1: %n svitsjer</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../views/scene/FabricScene.cpp" line="1564"/>
        <source>Service node</source>
        <translation>Tjenestenode</translation>
    </message>
    <message>
        <location filename="../views/scene/FabricScene.cpp" line="1821"/>
        <source>Chassis %1</source>
        <translation>Chassis %1</translation>
    </message>
    <message numerus="yes">
        <location filename="../views/scene/FabricScene.cpp" line="245"/>
        <source>eBB bottleneck %1: limits %2 of the sampled streams (%n stream(s)), mean congestion %3</source>
        <translation>
            <numerusform>eBB-flaskehals %1: begrenser %2 av strømmene i utvalget (%n strøm), gjennomsnittlig overbelastning %3</numerusform>
            <numerusform>eBB-flaskehals %1: begrenser %2 av strømmene i utvalget (%n strømmer), gjennomsnittlig overbelastning %3</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../views/scene/FabricScene.cpp" line="1152"/>
        <source>Measured %1 → %2: %3 MB/s, %4 % of the link, xmit wait %5/s</source>
        <translation>Målt %1 → %2: %3 MB/s, %4 % av lenken, sendeventing %5/s</translation>
    </message>
    <message>
        <location filename="../views/scene/FabricScene.cpp" line="1160"/>
        <source>Errors at %1: %2</source>
        <translation>Feil ved %1: %2</translation>
    </message>
    <message numerus="yes">
        <location filename="../views/scene/FabricScene.cpp" line="1226"/>
        <source>… %n more partition(s), hues repeat</source>
        <translation>
            <numerusform>… %n partisjon til, fargene gjentas</numerusform>
            <numerusform>… %n partisjoner til, fargene gjentas</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../views/scene/FabricScene.cpp" line="1229"/>
        <source>Host in several partitions</source>
        <translation>Vert i flere partisjoner</translation>
    </message>
    <message>
        <location filename="../views/scene/FabricScene.cpp" line="1232"/>
        <source>Tenant %1</source>
        <translation>Leietaker %1</translation>
    </message>
    <message>
        <location filename="../views/scene/FabricScene.cpp" line="1235"/>
        <source>Host in no partition</source>
        <translation>Vert uten partisjon</translation>
    </message>
    <message>
        <location filename="../views/scene/FabricScene.cpp" line="1237"/>
        <source>Cable shared by partitions</source>
        <translation>Kabel delt av partisjoner</translation>
    </message>
    <message>
        <location filename="../views/scene/FabricScene.cpp" line="1238"/>
        <source>Cable without partition traffic</source>
        <translation>Kabel uten partisjonstrafikk</translation>
    </message>
    <message>
        <location filename="../views/scene/FabricScene.cpp" line="1241"/>
        <source>Idle cable</source>
        <translation>Ubrukt kabel</translation>
    </message>
    <message>
        <location filename="../views/scene/FabricScene.cpp" line="1244"/>
        <source>Busiest: %1 % of the link</source>
        <translation>Travlest: %1 % av lenken</translation>
    </message>
    <message>
        <location filename="../views/scene/FabricScene.cpp" line="1246"/>
        <source>PortXmitWait rising (ring at the port)</source>
        <translation>PortXmitWait stiger (ring ved porten)</translation>
    </message>
    <message>
        <location filename="../views/scene/FabricScene.cpp" line="1248"/>
        <source>Port with new errors</source>
        <translation>Port med nye feil</translation>
    </message>
    <message>
        <location filename="../views/scene/FabricScene.cpp" line="1251"/>
        <source>Pod or group of switches (double-click to open)</source>
        <translation>Pod eller gruppe av svitsjer (dobbeltklikk for å åpne)</translation>
    </message>
    <message>
        <location filename="../views/scene/FabricScene.cpp" line="1254"/>
        <source>Hottest bundle: %1 ↔ %2</source>
        <translation>Varmeste bunt: %1 ↔ %2</translation>
    </message>
    <message>
        <location filename="../views/scene/FabricScene.cpp" line="1258"/>
        <source>Cable gone since discovery (dashed)</source>
        <translation>Kabel forsvunnet siden oppdagelsen (stiplet)</translation>
    </message>
    <message>
        <location filename="../views/scene/FabricScene.cpp" line="1260"/>
        <source>Cable new since discovery</source>
        <translation>Kabel ny siden oppdagelsen</translation>
    </message>
    <message>
        <location filename="../views/scene/FabricScene.cpp" line="1262"/>
        <source>What if: failed or removed (crossed)</source>
        <translation>Hva om: feilet eller fjernet (krysset ut)</translation>
    </message>
    <message>
        <location filename="../views/scene/FabricScene.cpp" line="1284"/>
        <source>Switch</source>
        <translation>Svitsj</translation>
    </message>
    <message>
        <location filename="../views/scene/FabricScene.cpp" line="1287"/>
        <source>Host</source>
        <translation>Vert</translation>
    </message>
    <message>
        <location filename="../views/scene/FabricScene.cpp" line="1290"/>
        <source>Router</source>
        <translation>Ruter</translation>
    </message>
    <message>
        <location filename="../views/scene/FabricScene.cpp" line="1299"/>
        <source>&lt;b&gt;%1&lt;/b&gt; (%2)&lt;br&gt;GUID %3&lt;br&gt;LID %4&lt;br&gt;%5 ports, %6 cabled&lt;br&gt;Tier %7</source>
        <translation>&lt;b&gt;%1&lt;/b&gt; (%2)&lt;br&gt;GUID %3&lt;br&gt;LID %4&lt;br&gt;%5 porter, %6 kablet&lt;br&gt;Nivå %7</translation>
    </message>
    <message>
        <location filename="../views/scene/FabricScene.cpp" line="1300"/>
        <location filename="../views/scene/FabricScene.cpp" line="1380"/>
        <location filename="../views/scene/FabricScene.cpp" line="1753"/>
        <source>none</source>
        <translation>ingen</translation>
    </message>
    <message>
        <location filename="../views/scene/FabricScene.cpp" line="1303"/>
        <source>none (no path to a host)</source>
        <translation>ingen (ingen vei til en vert)</translation>
    </message>
    <message>
        <location filename="../views/scene/FabricScene.cpp" line="1308"/>
        <location filename="../views/scene/FabricScene.cpp" line="1380"/>
        <location filename="../views/scene/FabricScene.cpp" line="1753"/>
        <source>Partitions: %1</source>
        <translation>Partisjoner: %1</translation>
    </message>
    <message>
        <location filename="../views/scene/FabricScene.cpp" line="1308"/>
        <source>none besides the default</source>
        <translation>ingen utenom standardpartisjonen</translation>
    </message>
    <message>
        <location filename="../views/scene/FabricScene.cpp" line="1311"/>
        <source>Tenant: %1</source>
        <translation>Leietaker: %1</translation>
    </message>
    <message>
        <location filename="../views/scene/FabricScene.cpp" line="1322"/>
        <source>Port %1 → %2: load out %3, in %4</source>
        <translation>Port %1 → %2: last ut %3, inn %4</translation>
    </message>
    <message numerus="yes">
        <location filename="../views/scene/FabricScene.cpp" line="1328"/>
        <source>… and %n more port(s)</source>
        <translation>
            <numerusform>… og %n port til</numerusform>
            <numerusform>… og %n porter til</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../views/scene/FabricScene.cpp" line="1367"/>
        <source>&lt;b&gt;Cable&lt;/b&gt; %1 ↔ %2</source>
        <translation>&lt;b&gt;Kabel&lt;/b&gt; %1 ↔ %2</translation>
    </message>
    <message>
        <location filename="../views/scene/FabricScene.cpp" line="1370"/>
        <location filename="../views/scene/FabricScene.cpp" line="1371"/>
        <source>Load %1 → %2: %3</source>
        <translation>Last %1 → %2: %3</translation>
    </message>
    <message>
        <location filename="../views/scene/FabricScene.cpp" line="1373"/>
        <source>No routing to measure load with</source>
        <translation>Ingen ruting å måle last med</translation>
    </message>
    <message>
        <location filename="../views/scene/FabricScene.cpp" line="1402"/>
        <source>Hosts under %1: %2</source>
        <translation>Verter under %1: %2</translation>
    </message>
    <message>
        <location filename="../views/scene/FabricScene.cpp" line="1522"/>
        <source>Pod %1</source>
        <translation>Pod %1</translation>
    </message>
    <message>
        <location filename="../views/scene/FabricScene.cpp" line="1525"/>
        <source>Unreached switches</source>
        <translation>Svitsjer som ikke nås</translation>
    </message>
    <message>
        <location filename="../views/scene/FabricScene.cpp" line="1527"/>
        <source>Leaves</source>
        <translation>Løvsvitsjer</translation>
    </message>
    <message>
        <location filename="../views/scene/FabricScene.cpp" line="1529"/>
        <source>Roots</source>
        <translation>Rotsvitsjer</translation>
    </message>
    <message>
        <location filename="../views/scene/FabricScene.cpp" line="1531"/>
        <source>Tier %1</source>
        <translation>Nivå %1</translation>
    </message>
    <message>
        <location filename="../views/scene/FabricScene.cpp" line="1532"/>
        <source>%1, group %2</source>
        <translation>%1, gruppe %2</translation>
    </message>
    <message>
        <location filename="../views/scene/FabricScene.cpp" line="1737"/>
        <source>&lt;b&gt;Bundle&lt;/b&gt; %1 ↔ %2</source>
        <translation>&lt;b&gt;Bunt&lt;/b&gt; %1 ↔ %2</translation>
    </message>
    <message numerus="yes">
        <location filename="../views/scene/FabricScene.cpp" line="1738"/>
        <source>%n cable(s)</source>
        <translation>
            <numerusform>%n kabel</numerusform>
            <numerusform>%n kabler</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../views/scene/FabricScene.cpp" line="1740"/>
        <source>Load: worst %1, mean %2 (busier direction of each cable)</source>
        <translation>Last: verst %1, snitt %2 (den travleste retningen for hver kabel)</translation>
    </message>
    <message>
        <location filename="../views/scene/FabricScene.cpp" line="1742"/>
        <source>The hottest bundle</source>
        <translation>Den varmeste bunten</translation>
    </message>
    <message>
        <location filename="../views/scene/FabricScene.cpp" line="1754"/>
        <source>Double-click to show its cables</source>
        <translation>Dobbeltklikk for å vise kablene</translation>
    </message>
    <message numerus="yes">
        <location filename="../views/scene/FabricScene.cpp" line="1771"/>
        <source>%n switch(es), tier %1</source>
        <translation>
            <numerusform>%n svitsj, nivå %1</numerusform>
            <numerusform>%n svitsjer, nivå %1</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../views/scene/FabricScene.cpp" line="1772"/>
        <source>%n switch(es), tiers %1 to %2</source>
        <translation>
            <numerusform>%n svitsj, nivå %1 til %2</numerusform>
            <numerusform>%n svitsjer, nivå %1 til %2</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../views/scene/FabricScene.cpp" line="1775"/>
        <source>%n cable(s) to other groups</source>
        <translation>
            <numerusform>%n kabel til andre grupper</numerusform>
            <numerusform>%n kabler til andre grupper</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../views/scene/FabricScene.cpp" line="1776"/>
        <source>%n bundle(s)</source>
        <translation>
            <numerusform>%n bunt</numerusform>
            <numerusform>%n bunter</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../views/scene/FabricScene.cpp" line="1777"/>
        <source>Double-click to show its switches</source>
        <translation>Dobbeltklikk for å vise svitsjene</translation>
    </message>
</context>
<context>
    <name>weft::FabricSession</name>
    <message numerus="yes">
        <location filename="../session/FabricSession.cpp" line="76"/>
        <source>the forwarding tables of %n switch(es) changed</source>
        <translation>
            <numerusform>videresendingstabellene til %n svitsj er endret</numerusform>
            <numerusform>videresendingstabellene til %n svitsjer er endret</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../session/FabricSession.cpp" line="79"/>
        <source>P_Key tables changed</source>
        <translation>P_Key-tabellene er endret</translation>
    </message>
    <message>
        <location filename="../session/FabricSession.cpp" line="81"/>
        <source>OpenSM now runs on %1</source>
        <translation>OpenSM kjører nå på %1</translation>
    </message>
    <message>
        <location filename="../session/FabricSession.cpp" line="127"/>
        <source>held by the switches</source>
        <translation>lagret i svitsjene</translation>
    </message>
    <message>
        <location filename="../session/FabricSession.cpp" line="260"/>
        <source>the first adapter</source>
        <translation>den første adapteren</translation>
    </message>
    <message>
        <location filename="../session/FabricSession.cpp" line="261"/>
        <source>%1 port %2</source>
        <translation>port %2 på %1</translation>
    </message>
    <message numerus="yes">
        <location filename="../session/FabricSession.cpp" line="336"/>
        <source>subnet %1 (%n SM(s): %2)</source>
        <translation>
            <numerusform>subnett %1 (%n SM: %2)</numerusform>
            <numerusform>subnett %1 (%n SM-er: %2)</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../session/FabricSession.cpp" line="340"/>
        <source>intent %1 and %2</source>
        <translation>intensjon %1 og %2</translation>
    </message>
    <message>
        <location filename="../session/FabricSession.cpp" line="341"/>
        <source>%1 and %2</source>
        <translation>%1 og %2</translation>
    </message>
    <message>
        <location filename="../session/FabricSession.cpp" line="378"/>
        <source>the fabric service recovers its own commits (weft commit --recover on its host)</source>
        <translation>fabric-tjenesten gjenoppretter sine egne innføringer (weft commit --recover på verten dens)</translation>
    </message>
    <message>
        <location filename="../session/FabricSession.cpp" line="454"/>
        <source>Discovery cancelled.</source>
        <translation>Oppdagelsen ble avbrutt.</translation>
    </message>
    <message>
        <location filename="../session/FabricSession.cpp" line="497"/>
        <source>read again at %1</source>
        <translation>lest på nytt kl. %1</translation>
    </message>
    <message>
        <location filename="../session/FabricSession.cpp" line="560"/>
        <source>another fabric is open</source>
        <translation>en annen fabric er åpen</translation>
    </message>
    <message>
        <location filename="../session/FabricSession.cpp" line="567"/>
        <source>links gone: %1</source>
        <translation>forsvunne lenker: %1</translation>
    </message>
    <message>
        <location filename="../session/FabricSession.cpp" line="568"/>
        <source>new links: %1</source>
        <translation>nye lenker: %1</translation>
    </message>
    <message>
        <location filename="../session/FabricSession.cpp" line="569"/>
        <source>nodes gone: %1</source>
        <translation>forsvunne noder: %1</translation>
    </message>
    <message>
        <location filename="../session/FabricSession.cpp" line="570"/>
        <source>new nodes: %1</source>
        <translation>nye noder: %1</translation>
    </message>
    <message>
        <location filename="../session/FabricSession.cpp" line="571"/>
        <source>LIDs moved: %1</source>
        <translation>flyttede LID-er: %1</translation>
    </message>
    <message>
        <location filename="../session/FabricSession.cpp" line="572"/>
        <source>The fabric changed since it was discovered (%1): this plan is stale. Discover the fabric again (Fabric ▸ Rediscover), then preview again.</source>
        <translation>Fabricen er endret siden den ble oppdaget (%1): denne planen er utdatert. Oppdag fabricen på nytt (Fabric ▸ Oppdag på nytt), og forhåndsvis deretter på nytt.</translation>
    </message>
    <message>
        <location filename="../session/FabricSession.cpp" line="577"/>
        <source>this plan was %1: the fabric holds it now</source>
        <translation>denne planen ble %1: fabricen har den nå</translation>
    </message>
    <message>
        <location filename="../session/FabricSession.cpp" line="579"/>
        <source>what the fabric holds changed since this plan was made (now: %1): preview or plan again</source>
        <translation>det fabricen har, er endret siden denne planen ble laget (nå: %1): forhåndsvis eller planlegg på nytt</translation>
    </message>
    <message>
        <location filename="../session/FabricSession.cpp" line="581"/>
        <source>the partitions, policies or weights were edited since this plan was made (an edit, undo or redo): preview or plan again</source>
        <translation>partisjonene, reglene eller vektene er redigert siden denne planen ble laget (en endring, angring eller omgjøring): forhåndsvis eller planlegg på nytt</translation>
    </message>
    <message>
        <location filename="../session/FabricSession.cpp" line="584"/>
        <source>the what-if events changed since this plan was made: plan again in the studio</source>
        <translation>hva-om-hendelsene er endret siden denne planen ble laget: planlegg på nytt i studioet</translation>
    </message>
    <message>
        <location filename="../session/FabricSession.cpp" line="591"/>
        <source>there is no plan to commit</source>
        <translation>det finnes ingen plan å innføre</translation>
    </message>
    <message>
        <location filename="../session/FabricSession.cpp" line="593"/>
        <location filename="../session/FabricSession.cpp" line="668"/>
        <source>a commit is running</source>
        <translation>en innføring pågår</translation>
    </message>
    <message>
        <location filename="../session/FabricSession.cpp" line="623"/>
        <source>the commit target routes with Weft&apos;s engine inside OpenSM, which installs an intent (a Routing Preview&apos;s engine with the partitions); %1 is not one. Commit it to a target with OpenSM&apos;s file engine, or preview an engine.</source>
        <translation>målet for innføring ruter med Wefts motor inne i OpenSM, som innfører en intensjon (motoren fra en forhåndsvisning av ruting, med partisjonene); %1 er ikke en slik. Innfør den på et mål med OpenSMs filmotor, eller forhåndsvis en motor.</translation>
    </message>
    <message>
        <location filename="../session/FabricSession.cpp" line="670"/>
        <source>no commit target is configured (Fabric ▸ Commit Target…)</source>
        <translation>ikke noe mål for innføring er satt opp (Fabric ▸ Mål for innføring …)</translation>
    </message>
    <message>
        <location filename="../session/FabricSession.cpp" line="672"/>
        <source>the commit target routes with Weft&apos;s engine inside OpenSM, which installs intents only; %1 is a plan of tables</source>
        <translation>målet for innføring ruter med Wefts motor inne i OpenSM, som bare innfører intensjoner; %1 er en plan med tabeller</translation>
    </message>
    <message>
        <location filename="../session/FabricSession.cpp" line="675"/>
        <source>an unfinished commit is in the journal (%1, started %2): recover it first (Fabric ▸ Recover Unfinished Commit…)</source>
        <translation>det ligger en ufullført innføring i loggen (%1, startet %2): gjenopprett den først (Fabric ▸ Gjenopprett ufullført innføring …)</translation>
    </message>
    <message>
        <location filename="../session/FabricSession.cpp" line="696"/>
        <source>Committing %1…</source>
        <translation>Innfører %1 …</translation>
    </message>
    <message>
        <location filename="../session/FabricSession.cpp" line="696"/>
        <source>the plan</source>
        <translation>planen</translation>
    </message>
    <message>
        <location filename="../session/FabricSession.cpp" line="732"/>
        <source>committed at %1</source>
        <translation>innført kl. %1</translation>
    </message>
    <message>
        <location filename="../session/FabricSession.cpp" line="741"/>
        <source>read back after the commit at %1</source>
        <translation>lest tilbake etter innføringen kl. %1</translation>
    </message>
</context>
<context>
    <name>weft::FabricView</name>
    <message>
        <location filename="../views/scene/FabricView.cpp" line="478"/>
        <source>%1 · %2 switches</source>
        <translation>%1 · %2 svitsjer</translation>
    </message>
    <message>
        <location filename="../views/scene/FabricView.cpp" line="595"/>
        <source>Service node (Aggregation Node), beside its switch</source>
        <translation>Tjenestenode (aggregeringsnode), ved siden av svitsjen sin</translation>
    </message>
    <message>
        <location filename="../views/scene/FabricView.cpp" line="597"/>
        <source>Chassis (a director&apos;s spines and line cards)</source>
        <translation>Chassis (spine- og linjekortene i en direktørsvitsj)</translation>
    </message>
    <message>
        <location filename="../views/scene/FabricView.cpp" line="298"/>
        <source>Fail this switch</source>
        <translation>La denne svitsjen feile</translation>
    </message>
    <message>
        <location filename="../views/scene/FabricView.cpp" line="300"/>
        <source>Inspect LFT</source>
        <translation>Inspiser LFT</translation>
    </message>
    <message>
        <location filename="../views/scene/FabricView.cpp" line="303"/>
        <source>Remove</source>
        <translation>Fjern</translation>
    </message>
    <message>
        <location filename="../views/scene/FabricView.cpp" line="305"/>
        <source>Plan the reconfiguration as if this host were removed</source>
        <translation>Planlegg rekonfigureringen som om denne verten var fjernet</translation>
    </message>
    <message>
        <location filename="../views/scene/FabricView.cpp" line="317"/>
        <source>%1 [%2] – %3 [%4]</source>
        <translation>%1 [%2] – %3 [%4]</translation>
    </message>
    <message>
        <location filename="../views/scene/FabricView.cpp" line="320"/>
        <source>Fail this link</source>
        <translation>La denne lenken feile</translation>
    </message>
    <message numerus="yes">
        <location filename="../views/scene/FabricView.cpp" line="362"/>
        <source>%n host port(s)</source>
        <translation>
            <numerusform>%n vertsport</numerusform>
            <numerusform>%n vertsporter</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../views/scene/FabricView.cpp" line="413"/>
        <source>Hosts</source>
        <translation>Verter</translation>
    </message>
    <message>
        <location filename="../views/scene/FabricView.cpp" line="415"/>
        <source>Leaves</source>
        <translation>Løvsvitsjer</translation>
    </message>
    <message>
        <location filename="../views/scene/FabricView.cpp" line="417"/>
        <source>Roots</source>
        <translation>Rotsvitsjer</translation>
    </message>
    <message>
        <location filename="../views/scene/FabricView.cpp" line="419"/>
        <source>Tier %1</source>
        <translation>Nivå %1</translation>
    </message>
    <message>
        <location filename="../views/scene/FabricView.cpp" line="420"/>
        <source>%1 · %2</source>
        <translation>%1 · %2</translation>
    </message>
    <message>
        <location filename="../views/scene/FabricView.cpp" line="439"/>
        <source>Root switch</source>
        <translation>Rotsvitsj</translation>
    </message>
    <message>
        <location filename="../views/scene/FabricView.cpp" line="441"/>
        <source>Middle switch</source>
        <translation>Mellomsvitsj</translation>
    </message>
    <message>
        <location filename="../views/scene/FabricView.cpp" line="443"/>
        <source>Leaf switch</source>
        <translation>Løvsvitsj</translation>
    </message>
    <message>
        <location filename="../views/scene/FabricView.cpp" line="452"/>
        <source>Host</source>
        <translation>Vert</translation>
    </message>
    <message>
        <location filename="../views/scene/FabricView.cpp" line="454"/>
        <source>Router</source>
        <translation>Ruter</translation>
    </message>
    <message>
        <location filename="../views/scene/FabricView.cpp" line="456"/>
        <source>Cable</source>
        <translation>Kabel</translation>
    </message>
    <message>
        <location filename="../views/scene/FabricView.cpp" line="460"/>
        <source>Traced route, current tables</source>
        <translation>Sporet rute, gjeldende tabeller</translation>
    </message>
    <message>
        <location filename="../views/scene/FabricView.cpp" line="461"/>
        <source>… proposed tables</source>
        <translation>… foreslåtte tabeller</translation>
    </message>
    <message>
        <location filename="../views/scene/FabricView.cpp" line="463"/>
        <source>Route between two selected hosts, there</source>
        <translation>Rute mellom to valgte verter, dit</translation>
    </message>
    <message>
        <location filename="../views/scene/FabricView.cpp" line="464"/>
        <source>… and back</source>
        <translation>… og tilbake</translation>
    </message>
    <message>
        <location filename="../views/scene/FabricView.cpp" line="466"/>
        <source>Cable of selection</source>
        <translation>Kabel til det valgte</translation>
    </message>
    <message>
        <location filename="../views/scene/FabricView.cpp" line="540"/>
        <source>Cable load (%1)</source>
        <translation>Kabellast (%1)</translation>
    </message>
    <message>
        <location filename="../views/scene/FabricView.cpp" line="540"/>
        <source>Cable load</source>
        <translation>Kabellast</translation>
    </message>
</context>
<context>
    <name>weft::FileMenu</name>
    <message>
        <location filename="../app/gui/FileMenu.cpp" line="34"/>
        <source>&amp;File</source>
        <translation>&amp;Fil</translation>
    </message>
    <message>
        <location filename="../app/gui/FileMenu.cpp" line="36"/>
        <source>&amp;Open Topology…</source>
        <translation>&amp;Åpne topologi …</translation>
    </message>
    <message>
        <location filename="../app/gui/FileMenu.cpp" line="38"/>
        <source>Open &amp;Demo Fabric</source>
        <translation>Åpne &amp;demofabric</translation>
    </message>
    <message>
        <location filename="../app/gui/FileMenu.cpp" line="39"/>
        <source>The demo fabric replaces the fabric shown.</source>
        <translation>Demofabricen erstatter fabricen som vises.</translation>
    </message>
    <message>
        <location filename="../app/gui/FileMenu.cpp" line="42"/>
        <source>Open &amp;Project…</source>
        <translation>Åpne &amp;prosjekt …</translation>
    </message>
    <message>
        <location filename="../app/gui/FileMenu.cpp" line="44"/>
        <source>Open &amp;LFT Dump…</source>
        <translation>Åpne L&amp;FT-dump …</translation>
    </message>
    <message>
        <location filename="../app/gui/FileMenu.cpp" line="46"/>
        <source>Load the forwarding tables the fabric holds now (ibroute, dump_lfts or OpenSM&apos;s dump)</source>
        <translation>Last inn videresendingstabellene fabricen har nå (ibroute, dump_lfts eller OpenSMs dump)</translation>
    </message>
    <message>
        <location filename="../app/gui/FileMenu.cpp" line="47"/>
        <source>Open &amp;Recent</source>
        <translation>Åpne &amp;nylig brukt</translation>
    </message>
    <message>
        <location filename="../app/gui/FileMenu.cpp" line="50"/>
        <source>&amp;Save Project</source>
        <translation>&amp;Lagre prosjekt</translation>
    </message>
    <message>
        <location filename="../app/gui/FileMenu.cpp" line="52"/>
        <source>Save Project &amp;As…</source>
        <translation>Lagre prosjekt &amp;som …</translation>
    </message>
    <message>
        <location filename="../app/gui/FileMenu.cpp" line="55"/>
        <source>&amp;Quit</source>
        <translation>&amp;Avslutt</translation>
    </message>
    <message>
        <location filename="../app/gui/FileMenu.cpp" line="79"/>
        <source>Unsaved Changes</source>
        <translation>Ulagrede endringer</translation>
    </message>
    <message>
        <location filename="../app/gui/FileMenu.cpp" line="80"/>
        <source>%1 The partitions, policies or weights have unsaved changes. Save them as a project first?</source>
        <translation>%1 Partisjonene, isolasjonsreglene eller vektene har ulagrede endringer. Vil du lagre dem som et prosjekt først?</translation>
    </message>
    <message>
        <location filename="../app/gui/FileMenu.cpp" line="101"/>
        <source>open a fabric first</source>
        <translation>åpne en fabric først</translation>
    </message>
    <message>
        <location filename="../app/gui/FileMenu.cpp" line="115"/>
        <source>Current tables: %1</source>
        <translation>Gjeldende tabeller: %1</translation>
    </message>
    <message numerus="yes">
        <location filename="../app/gui/FileMenu.cpp" line="116"/>
        <source>Current tables: %1 (%n switch(es) not fully covered)</source>
        <translation>
            <numerusform>Gjeldende tabeller: %1 (%n svitsj ikke fullt dekket)</numerusform>
            <numerusform>Gjeldende tabeller: %1 (%n svitsjer ikke fullt dekket)</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../app/gui/FileMenu.cpp" line="124"/>
        <source>Open LFT Dump</source>
        <translation>Åpne LFT-dump</translation>
    </message>
    <message>
        <location filename="../app/gui/FileMenu.cpp" line="125"/>
        <source>LFT dumps (*.lfts *.dump *.txt);;All files (*)</source>
        <translation>LFT-dumper (*.lfts *.dump *.txt);;Alle filer (*)</translation>
    </message>
    <message>
        <location filename="../app/gui/FileMenu.cpp" line="131"/>
        <source>Cannot Open the LFT Dump</source>
        <translation>Kan ikke åpne LFT-dumpen</translation>
    </message>
    <message>
        <location filename="../app/gui/FileMenu.cpp" line="138"/>
        <source>open the project&apos;s fabric first</source>
        <translation>åpne prosjektets fabric først</translation>
    </message>
    <message numerus="yes">
        <location filename="../app/gui/FileMenu.cpp" line="151"/>
        <source>%n GUID(s) of the project are not in this fabric and were left out</source>
        <translation>
            <numerusform>%n GUID i prosjektet finnes ikke i denne fabricen og ble utelatt</numerusform>
            <numerusform>%n GUID-er i prosjektet finnes ikke i denne fabricen og ble utelatt</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../app/gui/FileMenu.cpp" line="166"/>
        <source>Saved %1</source>
        <translation>Lagret %1</translation>
    </message>
    <message>
        <location filename="../app/gui/FileMenu.cpp" line="172"/>
        <source>Opening a project replaces the partitions, policies and weights.</source>
        <translation>Når et prosjekt åpnes, erstattes partisjonene, reglene og vektene.</translation>
    </message>
    <message>
        <location filename="../app/gui/FileMenu.cpp" line="174"/>
        <source>Open Project</source>
        <translation>Åpne prosjekt</translation>
    </message>
    <message>
        <location filename="../app/gui/FileMenu.cpp" line="174"/>
        <source>Weft projects (*.weft);;All files (*)</source>
        <translation>Weft-prosjekter (*.weft);;Alle filer (*)</translation>
    </message>
    <message>
        <location filename="../app/gui/FileMenu.cpp" line="180"/>
        <location filename="../app/gui/FileMenu.cpp" line="260"/>
        <source>Cannot Open the Project</source>
        <translation>Kan ikke åpne prosjektet</translation>
    </message>
    <message>
        <location filename="../app/gui/FileMenu.cpp" line="185"/>
        <source>Save Project</source>
        <translation>Lagre prosjekt</translation>
    </message>
    <message>
        <location filename="../app/gui/FileMenu.cpp" line="185"/>
        <source>Weft projects (*.weft)</source>
        <translation>Weft-prosjekter (*.weft)</translation>
    </message>
    <message>
        <location filename="../app/gui/FileMenu.cpp" line="192"/>
        <location filename="../app/gui/FileMenu.cpp" line="206"/>
        <source>Cannot Save the Project</source>
        <translation>Kan ikke lagre prosjektet</translation>
    </message>
    <message>
        <location filename="../app/gui/FileMenu.cpp" line="239"/>
        <source>Cannot Open the Demo Fabric</source>
        <translation>Kan ikke åpne demofabricen</translation>
    </message>
    <message>
        <location filename="../app/gui/FileMenu.cpp" line="244"/>
        <source>Opening a topology replaces the fabric shown.</source>
        <translation>Når en topologi åpnes, erstattes fabricen som vises.</translation>
    </message>
    <message>
        <location filename="../app/gui/FileMenu.cpp" line="247"/>
        <source>Open Topology</source>
        <translation>Åpne topologi</translation>
    </message>
    <message>
        <location filename="../app/gui/FileMenu.cpp" line="248"/>
        <source>Topology files (ibnetdiscover, ibsim) (*.txt *.net *.topo);;All files (*)</source>
        <translation>Topologifiler (ibnetdiscover, ibsim) (*.txt *.net *.topo);;Alle filer (*)</translation>
    </message>
    <message>
        <location filename="../app/gui/FileMenu.cpp" line="269"/>
        <source>Cannot Open Topology</source>
        <translation>Kan ikke åpne topologien</translation>
    </message>
    <message>
        <location filename="../app/gui/FileMenu.cpp" line="270"/>
        <source>%1 could not be read. The fabric shown before is unchanged.</source>
        <translation>Kunne ikke lese %1. Fabricen som ble vist fra før, er uendret.</translation>
    </message>
    <message>
        <location filename="../app/gui/FileMenu.cpp" line="295"/>
        <source>&amp;%1 %2</source>
        <translation>&amp;%1 %2</translation>
    </message>
    <message>
        <location filename="../app/gui/FileMenu.cpp" line="296"/>
        <source>Opening %1 replaces what is shown.</source>
        <translation>Når %1 åpnes, erstattes det som vises.</translation>
    </message>
    <message>
        <location filename="../app/gui/FileMenu.cpp" line="303"/>
        <source>No Recent Files</source>
        <translation>Ingen nylig brukte filer</translation>
    </message>
    <message>
        <location filename="../app/gui/FileMenu.cpp" line="307"/>
        <source>&amp;Clear List</source>
        <translation>&amp;Tøm listen</translation>
    </message>
</context>
<context>
    <name>weft::LftInspector</name>
    <message>
        <location filename="../views/studio/LftInspector.cpp" line="288"/>
        <source>Switch:</source>
        <translation>Svitsj:</translation>
    </message>
    <message>
        <location filename="../views/studio/LftInspector.cpp" line="297"/>
        <source>Switch name, GUID or LID</source>
        <translation>Svitsjnavn, GUID eller LID</translation>
    </message>
    <message>
        <location filename="../views/studio/LftInspector.cpp" line="298"/>
        <source>Switches whose tables change are listed first, in bold</source>
        <translation>Svitsjer med tabeller som endres, vises først, i fet skrift</translation>
    </message>
    <message>
        <location filename="../views/studio/LftInspector.cpp" line="300"/>
        <source>Only changed blocks</source>
        <translation>Bare endrede blokker</translation>
    </message>
    <message>
        <location filename="../views/studio/LftInspector.cpp" line="303"/>
        <source>Go to LID:</source>
        <translation>Gå til LID:</translation>
    </message>
    <message>
        <location filename="../views/studio/LftInspector.cpp" line="306"/>
        <source>LID</source>
        <translation>LID</translation>
    </message>
    <message>
        <location filename="../views/studio/LftInspector.cpp" line="450"/>
        <source>No switch matches &quot;%1&quot;.</source>
        <translation>Ingen svitsj passer med «%1».</translation>
    </message>
    <message>
        <location filename="../views/studio/LftInspector.cpp" line="474"/>
        <source>LID %1 is not in this table.</source>
        <translation>LID %1 finnes ikke i denne tabellen.</translation>
    </message>
    <message>
        <location filename="../views/studio/LftInspector.cpp" line="507"/>
        <source>Open a fabric to inspect its switches&apos; forwarding tables.</source>
        <translation>Åpne en fabric for å inspisere videresendingstabellene til svitsjene.</translation>
    </message>
    <message>
        <location filename="../views/studio/LftInspector.cpp" line="510"/>
        <source>%1 (GUID %2, LID %3)</source>
        <translation>%1 (GUID %2, LID %3)</translation>
    </message>
    <message>
        <location filename="../views/studio/LftInspector.cpp" line="512"/>
        <source>%1: the proposed table is the same as the current one.</source>
        <translation>%1: den foreslåtte tabellen er lik den gjeldende.</translation>
    </message>
    <message numerus="yes">
        <location filename="../views/studio/LftInspector.cpp" line="517"/>
        <source>%1: %n entries change, in %2 block(s) sent: %3.</source>
        <translation>
            <numerusform>%1: %n oppføring endres, i sendte blokker (%2): %3.</numerusform>
            <numerusform>%1: %n oppføringer endres, i sendte blokker (%2): %3.</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>weft::LftTableModel</name>
    <message>
        <location filename="../views/studio/LftInspector.cpp" line="88"/>
        <source>(this switch)</source>
        <translation>(denne svitsjen)</translation>
    </message>
    <message>
        <location filename="../views/studio/LftInspector.cpp" line="92"/>
        <source>(no cable)</source>
        <translation>(ingen kabel)</translation>
    </message>
    <message>
        <location filename="../views/studio/LftInspector.cpp" line="96"/>
        <location filename="../views/studio/LftInspector.cpp" line="182"/>
        <source>%1 [%2]</source>
        <translation>%1 [%2]</translation>
    </message>
    <message>
        <location filename="../views/studio/LftInspector.cpp" line="165"/>
        <source>none</source>
        <translation>ingen</translation>
    </message>
    <message>
        <location filename="../views/studio/LftInspector.cpp" line="177"/>
        <source>(no port has this LID)</source>
        <translation>(ingen port har denne LID-en)</translation>
    </message>
    <message>
        <location filename="../views/studio/LftInspector.cpp" line="203"/>
        <source>%1 (sent)</source>
        <translation>%1 (sendt)</translation>
    </message>
    <message>
        <location filename="../views/studio/LftInspector.cpp" line="240"/>
        <source>Block %1 (LIDs %2-%3) differs: the subnet manager sends it</source>
        <translation>Blokk %1 (LID-er %2-%3) er ulik: subnet-manageren sender den</translation>
    </message>
    <message>
        <location filename="../views/studio/LftInspector.cpp" line="244"/>
        <source>Block %1 (LIDs %2-%3) is the same on both sides</source>
        <translation>Blokk %1 (LID-er %2-%3) er lik på begge sider</translation>
    </message>
    <message>
        <location filename="../views/studio/LftInspector.cpp" line="249"/>
        <source>LID %1: port %2 now, port %3 proposed</source>
        <translation>LID %1: port %2 nå, port %3 foreslått</translation>
    </message>
    <message>
        <location filename="../views/studio/LftInspector.cpp" line="262"/>
        <source>Block</source>
        <translation>Blokk</translation>
    </message>
    <message>
        <location filename="../views/studio/LftInspector.cpp" line="264"/>
        <source>LID</source>
        <translation>LID</translation>
    </message>
    <message>
        <location filename="../views/studio/LftInspector.cpp" line="266"/>
        <source>Destination</source>
        <translation>Mål</translation>
    </message>
    <message>
        <location filename="../views/studio/LftInspector.cpp" line="268"/>
        <source>Current port</source>
        <translation>Gjeldende port</translation>
    </message>
    <message>
        <location filename="../views/studio/LftInspector.cpp" line="270"/>
        <source>Current neighbour</source>
        <translation>Gjeldende nabo</translation>
    </message>
    <message>
        <location filename="../views/studio/LftInspector.cpp" line="272"/>
        <source>Proposed port</source>
        <translation>Foreslått port</translation>
    </message>
    <message>
        <location filename="../views/studio/LftInspector.cpp" line="274"/>
        <source>Proposed neighbour</source>
        <translation>Foreslått nabo</translation>
    </message>
</context>
<context>
    <name>weft::MainWindow</name>
    <message>
        <location filename="../app/gui/MainWindow.cpp" line="95"/>
        <source>Zoom %1 %</source>
        <translation>Zoom %1 %</translation>
    </message>
    <message numerus="yes">
        <location filename="../app/gui/MainWindow.cpp" line="122"/>
        <source>Route shown both ways: %n hop(s) in all</source>
        <translation>
            <numerusform>Ruten vises begge veier: %n hopp i alt</numerusform>
            <numerusform>Ruten vises begge veier: %n hopp i alt</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../app/gui/MainWindow.cpp" line="124"/>
        <source>%n nodes selected: drag the hosts onto a partition to add them</source>
        <translation>
            <numerusform>%n node valgt: dra vertene til en partisjon for å legge dem til</numerusform>
            <numerusform>%n noder valgt: dra vertene til en partisjon for å legge dem til</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../app/gui/MainWindow.cpp" line="97"/>
        <source>Weft</source>
        <translation>Weft</translation>
    </message>
    <message>
        <location filename="../app/gui/MainWindow.cpp" line="202"/>
        <source>Commit: %1</source>
        <translation>Innføring: %1</translation>
    </message>
    <message>
        <location filename="../app/gui/MainWindow.cpp" line="199"/>
        <source>Port counters: %1</source>
        <translation>Porttellere: %1</translation>
    </message>
    <message>
        <location filename="../app/gui/MainWindow.cpp" line="101"/>
        <source>The subnet target cannot be used: %1</source>
        <translation>Subnettmålet kan ikke brukes: %1</translation>
    </message>
    <message>
        <location filename="../app/gui/MainWindow.cpp" line="211"/>
        <source>Subnet managers: %1</source>
        <translation>Subnet-managere: %1</translation>
    </message>
    <message>
        <location filename="../app/gui/MainWindow.cpp" line="255"/>
        <source>No eBB results to show: run the Routing Preview with eBB on</source>
        <translation>Ingen eBB-resultater å vise: kjør forhåndsvisningen av ruting med eBB slått på</translation>
    </message>
    <message>
        <location filename="../app/gui/MainWindow.cpp" line="257"/>
        <source>No link limits any stream in the eBB samples</source>
        <translation>Ingen lenke begrenser noen strøm i eBB-utvalgene</translation>
    </message>
    <message>
        <location filename="../app/gui/MainWindow.cpp" line="264"/>
        <source>&amp;Edit</source>
        <translation>R&amp;ediger</translation>
    </message>
    <message>
        <location filename="../app/gui/MainWindow.cpp" line="265"/>
        <source>&amp;Undo</source>
        <translation>&amp;Angre</translation>
    </message>
    <message>
        <location filename="../app/gui/MainWindow.cpp" line="268"/>
        <source>&amp;Redo</source>
        <translation>&amp;Gjør om</translation>
    </message>
    <message>
        <location filename="../app/gui/MainWindow.cpp" line="274"/>
        <source>&amp;Find Node…</source>
        <translation>&amp;Finn node …</translation>
    </message>
    <message>
        <location filename="../app/gui/MainWindow.cpp" line="284"/>
        <source>&amp;View</source>
        <translation>&amp;Vis</translation>
    </message>
    <message>
        <location filename="../app/gui/MainWindow.cpp" line="285"/>
        <source>&amp;Fit to Window</source>
        <translation>&amp;Tilpass til vinduet</translation>
    </message>
    <message>
        <location filename="../app/gui/MainWindow.cpp" line="287"/>
        <source>Zoom &amp;In</source>
        <translation>Zoom &amp;inn</translation>
    </message>
    <message>
        <location filename="../app/gui/MainWindow.cpp" line="289"/>
        <source>Zoom &amp;Out</source>
        <translation>Zoom &amp;ut</translation>
    </message>
    <message>
        <location filename="../app/gui/MainWindow.cpp" line="291"/>
        <source>Go to &amp;Hottest Bundle</source>
        <translation>Gå til &amp;varmeste bunt</translation>
    </message>
    <message>
        <location filename="../app/gui/MainWindow.cpp" line="293"/>
        <source>No bundle to go to: zoom a big fabric out, with cables coloured by load</source>
        <translation>Ingen bunt å gå til: zoom ut en stor fabric, med kabler farget etter last</translation>
    </message>
    <message>
        <location filename="../app/gui/MainWindow.cpp" line="297"/>
        <source>Show &amp;eBB Bottlenecks</source>
        <translation>Vis &amp;eBB-flaskehalser</translation>
    </message>
    <message>
        <location filename="../app/gui/MainWindow.cpp" line="300"/>
        <source>Highlight the links that limit the most streams in the eBB samples, with the share they limit</source>
        <translation>Fremhev lenkene som begrenser flest strømmer i eBB-utvalgene, med andelen de begrenser</translation>
    </message>
    <message>
        <location filename="../app/gui/MainWindow.cpp" line="306"/>
        <source>&amp;Language</source>
        <translation>&amp;Språk</translation>
    </message>
    <message>
        <location filename="../app/gui/MainWindow.cpp" line="534"/>
        <source>Weft is closing.</source>
        <translation>Weft avsluttes.</translation>
    </message>
    <message>
        <location filename="../app/gui/Screenshots.cpp" line="307"/>
        <source>Commit &amp;Journal…</source>
        <translation>Commit-&amp;logg…</translation>
    </message>
    <message>
        <location filename="../app/gui/MainWindow.cpp" line="312"/>
        <source>&amp;Help</source>
        <translation>&amp;Hjelp</translation>
    </message>
    <message>
        <location filename="../app/gui/MainWindow.cpp" line="313"/>
        <source>&amp;About Weft</source>
        <translation>&amp;Om Weft</translation>
    </message>
    <message>
        <location filename="../app/gui/MainWindow.cpp" line="315"/>
        <source>About &amp;Qt</source>
        <translation>Om &amp;Qt</translation>
    </message>
    <message>
        <location filename="../app/gui/MainWindow.cpp" line="327"/>
        <source>System Language</source>
        <translation>Systemets språk</translation>
    </message>
    <message>
        <location filename="../app/gui/MainWindow.cpp" line="345"/>
        <source>The new language applies when Weft is started again.</source>
        <translation>Det nye språket gjelder fra neste gang Weft startes.</translation>
    </message>
    <message>
        <location filename="../app/gui/MainWindow.cpp" line="218"/>
        <source>%1[*] — Weft</source>
        <translation>%1[*] — Weft</translation>
    </message>
    <message>
        <location filename="../app/gui/MainWindow.cpp" line="221"/>
        <source>Laying out the fabric (%1 nodes)…</source>
        <translation>Plasserer nodene i fabricen (%1 noder) …</translation>
    </message>
    <message>
        <location filename="../app/gui/MainWindow.cpp" line="281"/>
        <source>No node matches &quot;%1&quot;</source>
        <translation>Ingen node passer med «%1»</translation>
    </message>
    <message>
        <location filename="../app/gui/MainWindow.cpp" line="505"/>
        <source>About Weft</source>
        <translation>Om Weft</translation>
    </message>
    <message>
        <location filename="../app/gui/MainWindow.cpp" line="506"/>
        <source>&lt;h3&gt;Weft %1&lt;/h3&gt;&lt;p&gt;A fabric manager for InfiniBand: topology, partitions and routing, previewed before they reach the subnet manager.&lt;/p&gt;</source>
        <translation>&lt;h3&gt;Weft %1&lt;/h3&gt;&lt;p&gt;En fabric-forvalter for InfiniBand: topologi, partisjoner og ruting, forhåndsvist før de når subnet-manageren.&lt;/p&gt;</translation>
    </message>
    <message>
        <location filename="../app/gui/MainWindow.cpp" line="419"/>
        <source>No fabric</source>
        <translation>Ingen fabric</translation>
    </message>
    <message>
        <location filename="../app/gui/MainWindow.cpp" line="424"/>
        <source>Switches: %1 · Hosts: %2 · Cables: %3</source>
        <translation>Svitsjer: %1 · Verter: %2 · Kabler: %3</translation>
    </message>
</context>
<context>
    <name>weft::MapToolBar</name>
    <message>
        <location filename="../app/gui/MapToolBar.cpp" line="21"/>
        <source>View</source>
        <translation>Visning</translation>
    </message>
    <message>
        <location filename="../app/gui/MapToolBar.cpp" line="27"/>
        <location filename="../app/gui/MapToolBar.cpp" line="33"/>
        <source>Plain</source>
        <translation>Ensfarget</translation>
    </message>
    <message>
        <location filename="../app/gui/MapToolBar.cpp" line="28"/>
        <source>By load</source>
        <translation>Etter last</translation>
    </message>
    <message>
        <location filename="../app/gui/MapToolBar.cpp" line="29"/>
        <source>By measured load</source>
        <translation>Etter målt last</translation>
    </message>
    <message>
        <location filename="../app/gui/MapToolBar.cpp" line="30"/>
        <location filename="../app/gui/MapToolBar.cpp" line="34"/>
        <source>By partition</source>
        <translation>Etter partisjon</translation>
    </message>
    <message>
        <location filename="../app/gui/MapToolBar.cpp" line="35"/>
        <source>By tenant</source>
        <translation>Etter leietaker</translation>
    </message>
    <message>
        <location filename="../app/gui/MapToolBar.cpp" line="38"/>
        <source>Current tables</source>
        <translation>Gjeldende tabeller</translation>
    </message>
    <message>
        <location filename="../app/gui/MapToolBar.cpp" line="39"/>
        <source>Proposed (preview)</source>
        <translation>Foreslåtte (forhåndsvisning)</translation>
    </message>
    <message>
        <location filename="../app/gui/MapToolBar.cpp" line="43"/>
        <source>Find node: name, GUID or LID</source>
        <translation>Finn node: navn, GUID eller LID</translation>
    </message>
    <message>
        <location filename="../app/gui/MapToolBar.cpp" line="47"/>
        <source> Cables: </source>
        <translation> Kabler: </translation>
    </message>
    <message>
        <location filename="../app/gui/MapToolBar.cpp" line="49"/>
        <source>  Hosts: </source>
        <translation>  Verter: </translation>
    </message>
    <message>
        <location filename="../app/gui/MapToolBar.cpp" line="51"/>
        <source>  Routing: </source>
        <translation>  Ruting: </translation>
    </message>
</context>
<context>
    <name>weft::NodePanel</name>
    <message>
        <location filename="../views/nodes/NodePanel.cpp" line="24"/>
        <source>Find a node by name, GUID or LID (&quot;lid 17&quot;)</source>
        <translation>Finn en node etter navn, GUID eller LID («lid 17»)</translation>
    </message>
</context>
<context>
    <name>weft::NodeTableModel</name>
    <message>
        <location filename="../views/nodes/NodeTableModel.cpp" line="57"/>
        <source>Switch</source>
        <translation>Svitsj</translation>
    </message>
    <message>
        <location filename="../views/nodes/NodeTableModel.cpp" line="59"/>
        <source>Host</source>
        <translation>Vert</translation>
    </message>
    <message>
        <location filename="../views/nodes/NodeTableModel.cpp" line="61"/>
        <source>Router</source>
        <translation>Ruter</translation>
    </message>
    <message>
        <location filename="../views/nodes/NodeTableModel.cpp" line="114"/>
        <source>none</source>
        <translation>ingen</translation>
    </message>
    <message>
        <location filename="../views/nodes/NodeTableModel.cpp" line="127"/>
        <source>Type</source>
        <translation>Type</translation>
    </message>
    <message>
        <location filename="../views/nodes/NodeTableModel.cpp" line="129"/>
        <source>Description</source>
        <translation>Beskrivelse</translation>
    </message>
    <message>
        <location filename="../views/nodes/NodeTableModel.cpp" line="131"/>
        <source>GUID</source>
        <translation>GUID</translation>
    </message>
    <message>
        <location filename="../views/nodes/NodeTableModel.cpp" line="133"/>
        <source>LID</source>
        <translation>LID</translation>
    </message>
    <message>
        <location filename="../views/nodes/NodeTableModel.cpp" line="135"/>
        <source>Ports</source>
        <translation>Porter</translation>
    </message>
    <message>
        <location filename="../views/nodes/NodeTableModel.cpp" line="137"/>
        <source>Tier</source>
        <translation>Nivå</translation>
    </message>
</context>
<context>
    <name>weft::OpenSmPanel</name>
    <message>
        <location filename="../views/studio/OpenSmPanel.cpp" line="27"/>
        <source>TRUE</source>
        <translation>TRUE</translation>
    </message>
    <message>
        <location filename="../views/studio/OpenSmPanel.cpp" line="27"/>
        <source>FALSE</source>
        <translation>FALSE</translation>
    </message>
    <message>
        <location filename="../views/studio/OpenSmPanel.cpp" line="48"/>
        <source>Option</source>
        <translation>Innstilling</translation>
    </message>
    <message>
        <location filename="../views/studio/OpenSmPanel.cpp" line="48"/>
        <source>Value</source>
        <translation>Verdi</translation>
    </message>
    <message>
        <location filename="../views/studio/OpenSmPanel.cpp" line="48"/>
        <source>Set by</source>
        <translation>Satt av</translation>
    </message>
    <message>
        <location filename="../views/studio/OpenSmPanel.cpp" line="63"/>
        <source>&amp;Refresh</source>
        <translation>&amp;Oppdater</translation>
    </message>
    <message>
        <location filename="../views/studio/OpenSmPanel.cpp" line="66"/>
        <source>Choose Options &amp;File…</source>
        <translation>Velg &amp;innstillingsfil…</translation>
    </message>
    <message>
        <location filename="../views/studio/OpenSmPanel.cpp" line="68"/>
        <source>OpenSM&apos;s options file (its -F, by default /etc/opensm/opensm.conf), when Weft cannot find it</source>
        <translation>OpenSMs innstillingsfil (dens -F, som standard /etc/opensm/opensm.conf), når Weft ikke finner den</translation>
    </message>
    <message>
        <location filename="../views/studio/OpenSmPanel.cpp" line="79"/>
        <source>What would defeat or distort a commit:</source>
        <translation>Hva som ville hindre eller forvrenge en innføring:</translation>
    </message>
    <message>
        <location filename="../views/studio/OpenSmPanel.cpp" line="102"/>
        <source>OpenSM&apos;s Options File</source>
        <translation>OpenSMs innstillingsfil</translation>
    </message>
    <message>
        <location filename="../views/studio/OpenSmPanel.cpp" line="102"/>
        <source>OpenSM options (*.conf);;All files (*)</source>
        <translation>OpenSM-innstillinger (*.conf);;Alle filer (*)</translation>
    </message>
    <message>
        <location filename="../views/studio/OpenSmPanel.cpp" line="163"/>
        <source>No commit target is configured: choose one in the Diff Review (Commit Target…), or run the desk under `weft lab --gui`.</source>
        <translation>Ikke noe mål for innføring er satt opp: velg et i Gjennomgang av endringer (Mål for innføring …), eller kjør skrivebordet under `weft lab --gui`.</translation>
    </message>
    <message>
        <location filename="../views/studio/OpenSmPanel.cpp" line="173"/>
        <source>OpenSM&apos;s options cannot be read.</source>
        <translation>OpenSMs innstillinger kan ikke leses.</translation>
    </message>
    <message>
        <location filename="../views/studio/OpenSmPanel.cpp" line="185"/>
        <source>OpenSM of the commit target (pid file %1): unknown</source>
        <translation>OpenSM for målet for innføring (pid-fil %1): ukjent</translation>
    </message>
    <message>
        <location filename="../views/studio/OpenSmPanel.cpp" line="187"/>
        <source>OpenSM runs as pid %1.</source>
        <translation>OpenSM kjører som pid %1.</translation>
    </message>
    <message numerus="yes">
        <location filename="../views/studio/OpenSmPanel.cpp" line="188"/>
        <source>OpenSM runs as pid %1, in %2 state; %n sweep(s) finished in its log.</source>
        <translation>
            <numerusform>OpenSM kjører som pid %1, i tilstanden %2; %n sveip fullført i loggen.</numerusform>
            <numerusform>OpenSM kjører som pid %1, i tilstanden %2; %n sveip fullført i loggen.</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../views/studio/OpenSmPanel.cpp" line="193"/>
        <source>OpenSM (pid %1) is not running.</source>
        <translation>OpenSM (pid %1) kjører ikke.</translation>
    </message>
    <message>
        <location filename="../views/studio/OpenSmPanel.cpp" line="195"/>
        <source>command line</source>
        <translation>kommandolinje</translation>
    </message>
    <message>
        <location filename="../views/studio/OpenSmPanel.cpp" line="199"/>
        <source>OpenSM&apos;s default</source>
        <translation>OpenSMs standard</translation>
    </message>
    <message>
        <location filename="../views/studio/OpenSmPanel.cpp" line="204"/>
        <source>Process</source>
        <translation>Prosess</translation>
    </message>
    <message>
        <location filename="../views/studio/OpenSmPanel.cpp" line="204"/>
        <location filename="../views/studio/OpenSmPanel.cpp" line="211"/>
        <location filename="../views/studio/OpenSmPanel.cpp" line="212"/>
        <source>unknown</source>
        <translation>ukjent</translation>
    </message>
    <message>
        <location filename="../views/studio/OpenSmPanel.cpp" line="205"/>
        <source>Command line</source>
        <translation>Kommandolinje</translation>
    </message>
    <message>
        <location filename="../views/studio/OpenSmPanel.cpp" line="206"/>
        <source>not readable</source>
        <translation>ikke lesbar</translation>
    </message>
    <message>
        <location filename="../views/studio/OpenSmPanel.cpp" line="208"/>
        <source>Options file</source>
        <translation>Innstillingsfil</translation>
    </message>
    <message>
        <location filename="../views/studio/OpenSmPanel.cpp" line="209"/>
        <source>none found</source>
        <translation>ingen funnet</translation>
    </message>
    <message>
        <location filename="../views/studio/OpenSmPanel.cpp" line="209"/>
        <source>%1 (not found)</source>
        <translation>%1 (ikke funnet)</translation>
    </message>
    <message>
        <location filename="../views/studio/OpenSmPanel.cpp" line="210"/>
        <source>chosen here</source>
        <translation>valgt her</translation>
    </message>
    <message>
        <location filename="../views/studio/OpenSmPanel.cpp" line="211"/>
        <source>Log</source>
        <translation>Logg</translation>
    </message>
    <message>
        <location filename="../views/studio/OpenSmPanel.cpp" line="212"/>
        <source>SM state</source>
        <translation>SM-tilstand</translation>
    </message>
    <message>
        <location filename="../views/studio/OpenSmPanel.cpp" line="212"/>
        <source>log</source>
        <translation>logg</translation>
    </message>
    <message>
        <location filename="../views/studio/OpenSmPanel.cpp" line="213"/>
        <source>Routing engine</source>
        <translation>Rutingmotor</translation>
    </message>
    <message>
        <location filename="../views/studio/OpenSmPanel.cpp" line="214"/>
        <source>minhop (default)</source>
        <translation>minhop (standard)</translation>
    </message>
    <message>
        <location filename="../views/studio/OpenSmPanel.cpp" line="217"/>
        <source>LFT file</source>
        <translation>LFT-fil</translation>
    </message>
    <message>
        <location filename="../views/studio/OpenSmPanel.cpp" line="217"/>
        <location filename="../views/studio/OpenSmPanel.cpp" line="233"/>
        <location filename="../views/studio/OpenSmPanel.cpp" line="234"/>
        <location filename="../views/studio/OpenSmPanel.cpp" line="236"/>
        <source>none</source>
        <translation>ingen</translation>
    </message>
    <message>
        <location filename="../views/studio/OpenSmPanel.cpp" line="218"/>
        <source>Partitions file</source>
        <translation>Partisjonsfil</translation>
    </message>
    <message>
        <location filename="../views/studio/OpenSmPanel.cpp" line="220"/>
        <source>LMC</source>
        <translation>LMC</translation>
    </message>
    <message>
        <location filename="../views/studio/OpenSmPanel.cpp" line="221"/>
        <source>SM priority</source>
        <translation>SM-prioritet</translation>
    </message>
    <message>
        <location filename="../views/studio/OpenSmPanel.cpp" line="222"/>
        <source>Sweep interval</source>
        <translation>Sveipintervall</translation>
    </message>
    <message numerus="yes">
        <location filename="../views/studio/OpenSmPanel.cpp" line="223"/>
        <source>%n s</source>
        <translation>
            <numerusform>%n s</numerusform>
            <numerusform>%n s</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../views/studio/OpenSmPanel.cpp" line="223"/>
        <source>0 (no periodic sweeps; SIGHUP still sweeps)</source>
        <translation>0 (ingen periodiske sveip; SIGHUP sveiper fortsatt)</translation>
    </message>
    <message>
        <location filename="../views/studio/OpenSmPanel.cpp" line="225"/>
        <source>Unicast cache</source>
        <translation>Unicast-hurtigbuffer</translation>
    </message>
    <message>
        <location filename="../views/studio/OpenSmPanel.cpp" line="226"/>
        <source>Reassign LIDs</source>
        <translation>Tildel LID-er på nytt</translation>
    </message>
    <message>
        <location filename="../views/studio/OpenSmPanel.cpp" line="227"/>
        <source>Force heavy sweep</source>
        <translation>Tving tungt sveip</translation>
    </message>
    <message>
        <location filename="../views/studio/OpenSmPanel.cpp" line="228"/>
        <source>Honor guid2lid</source>
        <translation>Følg guid2lid</translation>
    </message>
    <message>
        <location filename="../views/studio/OpenSmPanel.cpp" line="229"/>
        <source>QoS</source>
        <translation>QoS</translation>
    </message>
    <message>
        <location filename="../views/studio/OpenSmPanel.cpp" line="230"/>
        <source>Partition enforcement</source>
        <translation>Håndheving av partisjoner</translation>
    </message>
    <message>
        <location filename="../views/studio/OpenSmPanel.cpp" line="230"/>
        <source>off (no_partition_enforcement)</source>
        <translation>av (no_partition_enforcement)</translation>
    </message>
    <message>
        <location filename="../views/studio/OpenSmPanel.cpp" line="232"/>
        <source>GUID routing order file</source>
        <translation>Fil med GUID-rutingrekkefølge</translation>
    </message>
    <message>
        <location filename="../views/studio/OpenSmPanel.cpp" line="234"/>
        <source>Root GUID file</source>
        <translation>Fil med rot-GUID-er</translation>
    </message>
    <message>
        <location filename="../views/studio/OpenSmPanel.cpp" line="236"/>
        <source>Compute node GUID file</source>
        <translation>Fil med GUID-er for beregningsnoder</translation>
    </message>
    <message>
        <location filename="../views/studio/OpenSmPanel.cpp" line="250"/>
        <source>Nothing: OpenSM loads what a commit writes.</source>
        <translation>Ingenting: OpenSM laster inn det en innføring skriver.</translation>
    </message>
</context>
<context>
    <name>weft::PartitionPanel</name>
    <message>
        <location filename="../views/tenancy/PartitionPanel.cpp" line="35"/>
        <source>New…</source>
        <translation>Ny …</translation>
    </message>
    <message>
        <location filename="../views/tenancy/PartitionPanel.cpp" line="36"/>
        <source>Rename…</source>
        <translation>Gi nytt navn …</translation>
    </message>
    <message>
        <location filename="../views/tenancy/PartitionPanel.cpp" line="37"/>
        <source>Delete</source>
        <translation>Slett</translation>
    </message>
    <message>
        <location filename="../views/tenancy/PartitionPanel.cpp" line="38"/>
        <source>Full</source>
        <translation>Full</translation>
    </message>
    <message>
        <location filename="../views/tenancy/PartitionPanel.cpp" line="39"/>
        <source>Limited</source>
        <translation>Begrenset</translation>
    </message>
    <message>
        <location filename="../views/tenancy/PartitionPanel.cpp" line="40"/>
        <source>Remove</source>
        <translation>Fjern</translation>
    </message>
    <message>
        <location filename="../views/tenancy/PartitionPanel.cpp" line="64"/>
        <source>as full members</source>
        <translation>som fullverdige medlemmer</translation>
    </message>
    <message>
        <location filename="../views/tenancy/PartitionPanel.cpp" line="65"/>
        <source>as limited members</source>
        <translation>som begrensede medlemmer</translation>
    </message>
    <message>
        <location filename="../views/tenancy/PartitionPanel.cpp" line="66"/>
        <source>How hosts dropped on a partition become its members</source>
        <translation>Hvordan verter som slippes på en partisjon, blir medlemmer av den</translation>
    </message>
    <message>
        <location filename="../views/tenancy/PartitionPanel.cpp" line="75"/>
        <source>Create a partition with a name and a P_Key</source>
        <translation>Opprett en partisjon med navn og P_Key</translation>
    </message>
    <message>
        <location filename="../views/tenancy/PartitionPanel.cpp" line="76"/>
        <source>Make the selected members full members</source>
        <translation>Gjør de valgte medlemmene til fullverdige medlemmer</translation>
    </message>
    <message>
        <location filename="../views/tenancy/PartitionPanel.cpp" line="77"/>
        <source>Make the selected members limited members</source>
        <translation>Gjør de valgte medlemmene til begrensede medlemmer</translation>
    </message>
    <message>
        <location filename="../views/tenancy/PartitionPanel.cpp" line="78"/>
        <source>Remove the selected members from their partition</source>
        <translation>Fjern de valgte medlemmene fra partisjonen sin</translation>
    </message>
    <message>
        <location filename="../views/tenancy/PartitionPanel.cpp" line="89"/>
        <source>Drag hosts or tenants onto a partition to add them</source>
        <translation>Dra verter eller leietakere til en partisjon for å legge dem til</translation>
    </message>
    <message>
        <location filename="../views/tenancy/PartitionPanel.cpp" line="189"/>
        <source>Select the partition to rename.</source>
        <translation>Velg partisjonen som skal få nytt navn.</translation>
    </message>
    <message numerus="yes">
        <location filename="../views/tenancy/PartitionPanel.cpp" line="207"/>
        <source>Delete %n partition(s)</source>
        <translation>
            <numerusform>Slette %n partisjon</numerusform>
            <numerusform>Slette %n partisjoner</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../views/tenancy/PartitionPanel.cpp" line="234"/>
        <source>Change membership in %n partition(s)</source>
        <translation>
            <numerusform>Endre medlemskap i %n partisjon</numerusform>
            <numerusform>Endre medlemskap i %n partisjoner</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../views/tenancy/PartitionPanel.cpp" line="245"/>
        <source>Remove hosts from %n partition(s)</source>
        <translation>
            <numerusform>Fjerne verter fra %n partisjon</numerusform>
            <numerusform>Fjerne verter fra %n partisjoner</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../views/tenancy/PartitionPanel.cpp" line="255"/>
        <source>New Partition</source>
        <translation>Ny partisjon</translation>
    </message>
    <message>
        <location filename="../views/tenancy/PartitionPanel.cpp" line="258"/>
        <source>e.g. 0x0012</source>
        <translation>f.eks. 0x0012</translation>
    </message>
    <message>
        <location filename="../views/tenancy/PartitionPanel.cpp" line="263"/>
        <source>Name:</source>
        <translation>Navn:</translation>
    </message>
    <message>
        <location filename="../views/tenancy/PartitionPanel.cpp" line="264"/>
        <source>P_Key:</source>
        <translation>P_Key:</translation>
    </message>
    <message>
        <location filename="../views/tenancy/PartitionPanel.cpp" line="286"/>
        <source>Rename Partition</source>
        <translation>Gi partisjonen nytt navn</translation>
    </message>
    <message>
        <location filename="../views/tenancy/PartitionPanel.cpp" line="287"/>
        <source>New name for partition %1:</source>
        <translation>Nytt navn på partisjon %1:</translation>
    </message>
    <message>
        <location filename="../views/tenancy/PartitionPanel.cpp" line="297"/>
        <source>New Partition…</source>
        <translation>Ny partisjon …</translation>
    </message>
    <message>
        <location filename="../views/tenancy/PartitionPanel.cpp" line="298"/>
        <source>Rename Partition…</source>
        <translation>Gi partisjonen nytt navn …</translation>
    </message>
    <message>
        <location filename="../views/tenancy/PartitionPanel.cpp" line="299"/>
        <source>Delete Partition</source>
        <translation>Slett partisjonen</translation>
    </message>
    <message>
        <location filename="../views/tenancy/PartitionPanel.cpp" line="301"/>
        <source>Make Full Members</source>
        <translation>Gjør til fullverdige medlemmer</translation>
    </message>
    <message>
        <location filename="../views/tenancy/PartitionPanel.cpp" line="303"/>
        <source>Make Limited Members</source>
        <translation>Gjør til begrensede medlemmer</translation>
    </message>
    <message>
        <location filename="../views/tenancy/PartitionPanel.cpp" line="305"/>
        <source>Remove from Partition</source>
        <translation>Fjern fra partisjonen</translation>
    </message>
</context>
<context>
    <name>weft::PartitionTreeModel</name>
    <message>
        <location filename="../views/tenancy/PartitionTreeModel.cpp" line="21"/>
        <source>full</source>
        <translation>full</translation>
    </message>
    <message>
        <location filename="../views/tenancy/PartitionTreeModel.cpp" line="22"/>
        <source>limited</source>
        <translation>begrenset</translation>
    </message>
    <message>
        <location filename="../views/tenancy/PartitionTreeModel.cpp" line="23"/>
        <source>both</source>
        <translation>begge</translation>
    </message>
    <message>
        <location filename="../views/tenancy/PartitionTreeModel.cpp" line="121"/>
        <source>All ports (ALL)</source>
        <translation>Alle porter (ALL)</translation>
    </message>
    <message>
        <location filename="../views/tenancy/PartitionTreeModel.cpp" line="122"/>
        <source>All hosts (ALL_CAS)</source>
        <translation>Alle verter (ALL_CAS)</translation>
    </message>
    <message>
        <location filename="../views/tenancy/PartitionTreeModel.cpp" line="123"/>
        <source>All switches (ALL_SWITCHES)</source>
        <translation>Alle svitsjer (ALL_SWITCHES)</translation>
    </message>
    <message>
        <location filename="../views/tenancy/PartitionTreeModel.cpp" line="124"/>
        <source>All routers (ALL_ROUTERS)</source>
        <translation>Alle rutere (ALL_ROUTERS)</translation>
    </message>
    <message>
        <location filename="../views/tenancy/PartitionTreeModel.cpp" line="125"/>
        <source>The subnet manager&apos;s port (SELF)</source>
        <translation>Subnettforvalterens port (SELF)</translation>
    </message>
    <message>
        <location filename="../views/tenancy/PartitionTreeModel.cpp" line="142"/>
        <source>automatic</source>
        <translation>automatisk</translation>
    </message>
    <message numerus="yes">
        <location filename="../views/tenancy/PartitionTreeModel.cpp" line="143"/>
        <source>%n member(s)</source>
        <translation>
            <numerusform>%n medlem</numerusform>
            <numerusform>%n medlemmer</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../views/tenancy/PartitionTreeModel.cpp" line="160"/>
        <source>%1 (partition default)</source>
        <translation>%1 (partisjonens standard)</translation>
    </message>
    <message>
        <location filename="../views/tenancy/PartitionTreeModel.cpp" line="171"/>
        <source>Partition / member</source>
        <translation>Partisjon / medlem</translation>
    </message>
    <message>
        <location filename="../views/tenancy/PartitionTreeModel.cpp" line="172"/>
        <source>P_Key / GUID</source>
        <translation>P_Key / GUID</translation>
    </message>
    <message>
        <location filename="../views/tenancy/PartitionTreeModel.cpp" line="173"/>
        <source>Membership</source>
        <translation>Medlemskap</translation>
    </message>
</context>
<context>
    <name>weft::PathTrace</name>
    <message>
        <location filename="../views/studio/PathTrace.cpp" line="44"/>
        <source>Host name, GUID or LID</source>
        <translation>Vertsnavn, GUID eller LID</translation>
    </message>
    <message>
        <location filename="../views/studio/PathTrace.cpp" line="50"/>
        <source>From:</source>
        <translation>Fra:</translation>
    </message>
    <message>
        <location filename="../views/studio/PathTrace.cpp" line="53"/>
        <source>To:</source>
        <translation>Til:</translation>
    </message>
    <message>
        <location filename="../views/studio/PathTrace.cpp" line="56"/>
        <source>Show on map</source>
        <translation>Vis på kartet</translation>
    </message>
    <message>
        <location filename="../views/studio/PathTrace.cpp" line="58"/>
        <source>Highlight both routes on the map: current solid, proposed dashed</source>
        <translation>Fremhev begge rutene på kartet: gjeldende heltrukket, foreslått stiplet</translation>
    </message>
    <message>
        <location filename="../views/studio/PathTrace.cpp" line="62"/>
        <source>Or select two hosts on the map.</source>
        <translation>Eller velg to verter på kartet.</translation>
    </message>
    <message>
        <location filename="../views/studio/PathTrace.cpp" line="70"/>
        <source>Hop</source>
        <translation>Hopp</translation>
    </message>
    <message>
        <location filename="../views/studio/PathTrace.cpp" line="70"/>
        <source>Node</source>
        <translation>Node</translation>
    </message>
    <message>
        <location filename="../views/studio/PathTrace.cpp" line="70"/>
        <source>In port</source>
        <translation>Inngangsport</translation>
    </message>
    <message>
        <location filename="../views/studio/PathTrace.cpp" line="70"/>
        <source>Out port</source>
        <translation>Utgangsport</translation>
    </message>
    <message>
        <location filename="../views/studio/PathTrace.cpp" line="70"/>
        <source>Leads to</source>
        <translation>Fører til</translation>
    </message>
    <message>
        <location filename="../views/studio/PathTrace.cpp" line="70"/>
        <source>LID&apos;s block</source>
        <translation>LID-ens blokk</translation>
    </message>
    <message>
        <location filename="../views/studio/PathTrace.cpp" line="193"/>
        <source>Current: %1</source>
        <translation>Gjeldende: %1</translation>
    </message>
    <message>
        <location filename="../views/studio/PathTrace.cpp" line="193"/>
        <source>Current</source>
        <translation>Gjeldende</translation>
    </message>
    <message>
        <location filename="../views/studio/PathTrace.cpp" line="194"/>
        <source>Proposed: %1</source>
        <translation>Foreslått: %1</translation>
    </message>
    <message>
        <location filename="../views/studio/PathTrace.cpp" line="194"/>
        <source>Proposed</source>
        <translation>Foreslått</translation>
    </message>
    <message>
        <location filename="../views/studio/PathTrace.cpp" line="234"/>
        <source>%1 [%2]</source>
        <translation>%1 [%2]</translation>
    </message>
    <message numerus="yes">
        <location filename="../views/studio/PathTrace.cpp" line="243"/>
        <source>arrives in %n hop(s)</source>
        <translation>
            <numerusform>kommer frem etter %n hopp</numerusform>
            <numerusform>kommer frem etter %n hopp</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../views/studio/PathTrace.cpp" line="247"/>
        <source>reaches the wrong node, %1</source>
        <translation>når feil node, %1</translation>
    </message>
    <message>
        <location filename="../views/studio/PathTrace.cpp" line="249"/>
        <source>ends at switch %1 (its entry is port 0)</source>
        <translation>ender ved svitsj %1 (oppføringen er port 0)</translation>
    </message>
    <message>
        <location filename="../views/studio/PathTrace.cpp" line="251"/>
        <source>switch %1 has no table</source>
        <translation>svitsj %1 har ingen tabell</translation>
    </message>
    <message>
        <location filename="../views/studio/PathTrace.cpp" line="253"/>
        <source>no route</source>
        <translation>ingen rute</translation>
    </message>
    <message>
        <location filename="../views/studio/PathTrace.cpp" line="253"/>
        <source>switch %1 has no route to LID %2</source>
        <translation>svitsj %1 har ingen rute til LID %2</translation>
    </message>
    <message>
        <location filename="../views/studio/PathTrace.cpp" line="255"/>
        <source>the host has no cabled port or no LID</source>
        <translation>verten har ingen kablet port eller ingen LID</translation>
    </message>
    <message>
        <location filename="../views/studio/PathTrace.cpp" line="255"/>
        <source>switch %1 forwards to a port without a cable</source>
        <translation>svitsj %1 videresender til en port uten kabel</translation>
    </message>
    <message>
        <location filename="../views/studio/PathTrace.cpp" line="257"/>
        <source>loops</source>
        <translation>går i løkke</translation>
    </message>
</context>
<context>
    <name>weft::PolicyEditor</name>
    <message>
        <location filename="../views/tenancy/PolicyEditor.cpp" line="53"/>
        <source>Strict: refuse to route when a partition&apos;s isolation cannot be met</source>
        <translation>Streng: nekt ruting når en partisjons isolasjon ikke kan oppfylles</translation>
    </message>
    <message>
        <location filename="../views/tenancy/PolicyEditor.cpp" line="66"/>
        <source>Unchecked (best effort): routing goes ahead and warns about each unmet policy</source>
        <translation>Uten hake (veiledende): rutingen går videre og advarer om hver regel som ikke oppfylles</translation>
    </message>
</context>
<context>
    <name>weft::PolicyTableModel</name>
    <message>
        <location filename="../views/tenancy/PolicyTableModel.cpp" line="52"/>
        <source>None (shared links)</source>
        <translation>Ingen (delte lenker)</translation>
    </message>
    <message>
        <location filename="../views/tenancy/PolicyTableModel.cpp" line="53"/>
        <source>Own virtual lanes</source>
        <translation>Egne virtuelle baner</translation>
    </message>
    <message>
        <location filename="../views/tenancy/PolicyTableModel.cpp" line="54"/>
        <source>Own links (physical)</source>
        <translation>Egne lenker (fysisk)</translation>
    </message>
    <message>
        <location filename="../views/tenancy/PolicyTableModel.cpp" line="71"/>
        <source>automatic</source>
        <translation>automatisk</translation>
    </message>
    <message>
        <location filename="../views/tenancy/PolicyTableModel.cpp" line="102"/>
        <source>Partition</source>
        <translation>Partisjon</translation>
    </message>
    <message>
        <location filename="../views/tenancy/PolicyTableModel.cpp" line="103"/>
        <source>P_Key</source>
        <translation>P_Key</translation>
    </message>
    <message>
        <location filename="../views/tenancy/PolicyTableModel.cpp" line="104"/>
        <source>Isolation</source>
        <translation>Isolasjon</translation>
    </message>
</context>
<context>
    <name>weft::ReconfigurationStudio</name>
    <message>
        <location filename="../views/studio/ReconfigurationStudio.cpp" line="82"/>
        <source>C&amp;lear</source>
        <translation>&amp;Tøm</translation>
    </message>
    <message>
        <location filename="../views/studio/ReconfigurationStudio.cpp" line="84"/>
        <source>Forget the what-if events and their marks on the map</source>
        <translation>Glem hva-om-hendelsene og merkene deres på kartet</translation>
    </message>
    <message>
        <location filename="../views/studio/ReconfigurationStudio.cpp" line="85"/>
        <source>What if</source>
        <translation>Hva om</translation>
    </message>
    <message>
        <location filename="../views/studio/ReconfigurationStudio.cpp" line="101"/>
        <source>SlimUpdate, τ:</source>
        <translation>SlimUpdate, τ:</translation>
    </message>
    <message>
        <location filename="../views/studio/ReconfigurationStudio.cpp" line="108"/>
        <source>How far (in weight units) an installed choice may be worse than the best before it moves</source>
        <translation>Hvor mye (i vektenheter) et installert valg kan være dårligere enn det beste før det flyttes</translation>
    </message>
    <message>
        <location filename="../views/studio/ReconfigurationStudio.cpp" line="111"/>
        <source>Metabase, policy:</source>
        <translation>Metabase, regel:</translation>
    </message>
    <message>
        <location filename="../views/studio/ReconfigurationStudio.cpp" line="119"/>
        <source>mpi-order takes the hosts selected on the map as the ranks, in order; priority takes them as the high-priority nodes</source>
        <translation>mpi-order bruker vertene som er valgt på kartet, som rangene, i rekkefølge; priority bruker dem som nodene med høy prioritet</translation>
    </message>
    <message>
        <location filename="../views/studio/ReconfigurationStudio.cpp" line="121"/>
        <source>Effective bisection (%1 samples)</source>
        <translation>Effektiv todeling (%1 utvalg)</translation>
    </message>
    <message>
        <location filename="../views/studio/ReconfigurationStudio.cpp" line="125"/>
        <source>Full re-route:</source>
        <translation>Full omruting:</translation>
    </message>
    <message>
        <location filename="../views/studio/ReconfigurationStudio.cpp" line="137"/>
        <source>&amp;Plan</source>
        <translation>&amp;Planlegg</translation>
    </message>
    <message>
        <location filename="../views/studio/ReconfigurationStudio.cpp" line="139"/>
        <source>Plan every candidate picked for the events and the partitions, policies and weights as edited</source>
        <translation>Planlegg hver kandidat som er valgt, for hendelsene og partisjonene, reglene og vektene slik de er redigert</translation>
    </message>
    <message>
        <location filename="../views/studio/ReconfigurationStudio.cpp" line="140"/>
        <source>Plan the Current &amp;Edits</source>
        <translation>Planlegg de gjeldende &amp;endringene</translation>
    </message>
    <message>
        <location filename="../views/studio/ReconfigurationStudio.cpp" line="142"/>
        <source>Forget the what-if events and plan the partition, policy and weight edits alone</source>
        <translation>Glem hva-om-hendelsene og planlegg bare endringene i partisjoner, regler og vekter</translation>
    </message>
    <message>
        <location filename="../views/studio/ReconfigurationStudio.cpp" line="143"/>
        <source>Cancel</source>
        <translation>Avbryt</translation>
    </message>
    <message>
        <location filename="../views/studio/ReconfigurationStudio.cpp" line="158"/>
        <source>Candidate</source>
        <translation>Kandidat</translation>
    </message>
    <message>
        <location filename="../views/studio/ReconfigurationStudio.cpp" line="158"/>
        <source>Entries</source>
        <translation>Oppføringer</translation>
    </message>
    <message>
        <location filename="../views/studio/ReconfigurationStudio.cpp" line="158"/>
        <source>Blocks</source>
        <translation>Blokker</translation>
    </message>
    <message>
        <location filename="../views/studio/ReconfigurationStudio.cpp" line="158"/>
        <source>SMPs</source>
        <translation>SMP-er</translation>
    </message>
    <message>
        <location filename="../views/studio/ReconfigurationStudio.cpp" line="158"/>
        <source>Changed paths</source>
        <translation>Endrede veier</translation>
    </message>
    <message>
        <location filename="../views/studio/ReconfigurationStudio.cpp" line="159"/>
        <source>Max load</source>
        <translation>Maks. last</translation>
    </message>
    <message>
        <location filename="../views/studio/ReconfigurationStudio.cpp" line="159"/>
        <source>Mean load</source>
        <translation>Snittlast</translation>
    </message>
    <message>
        <location filename="../views/studio/ReconfigurationStudio.cpp" line="159"/>
        <source>Isolation violations</source>
        <translation>Isolasjonsbrudd</translation>
    </message>
    <message>
        <location filename="../views/studio/ReconfigurationStudio.cpp" line="159"/>
        <source>Valid</source>
        <translation>Gyldig</translation>
    </message>
    <message>
        <location filename="../views/studio/ReconfigurationStudio.cpp" line="159"/>
        <source>eBB</source>
        <translation>eBB</translation>
    </message>
    <message>
        <location filename="../views/studio/ReconfigurationStudio.cpp" line="160"/>
        <source>Time</source>
        <translation>Tid</translation>
    </message>
    <message>
        <location filename="../views/studio/ReconfigurationStudio.cpp" line="161"/>
        <source>Changed LFT entries</source>
        <translation>Endrede LFT-oppføringer</translation>
    </message>
    <message>
        <location filename="../views/studio/ReconfigurationStudio.cpp" line="162"/>
        <source>Changed 64-entry LFT blocks</source>
        <translation>Endrede LFT-blokker med 64 oppføringer</translation>
    </message>
    <message>
        <location filename="../views/studio/ReconfigurationStudio.cpp" line="163"/>
        <source>Source→destination paths that change (double-click for the pairs)</source>
        <translation>Kilde→mål-veier som endres (dobbeltklikk for parene)</translation>
    </message>
    <message>
        <location filename="../views/studio/ReconfigurationStudio.cpp" line="164"/>
        <source>Highest link load, installed tables after the event → candidate</source>
        <translation>Høyeste lenkelast, installerte tabeller etter hendelsen → kandidat</translation>
    </message>
    <message>
        <location filename="../views/studio/ReconfigurationStudio.cpp" line="165"/>
        <source>Mean link load, installed tables after the event → candidate</source>
        <translation>Gjennomsnittlig lenkelast, installerte tabeller etter hendelsen → kandidat</translation>
    </message>
    <message>
        <location filename="../views/studio/ReconfigurationStudio.cpp" line="166"/>
        <source>Reachable, loop-free, deadlock-free</source>
        <translation>Nåbar, løkkefri, vranglåsfri</translation>
    </message>
    <message>
        <location filename="../views/studio/ReconfigurationStudio.cpp" line="167"/>
        <source>Time to compute the candidate&apos;s routing</source>
        <translation>Tid for å beregne kandidatens ruting</translation>
    </message>
    <message>
        <location filename="../views/studio/ReconfigurationStudio.cpp" line="175"/>
        <source>&amp;Review</source>
        <translation>&amp;Gå gjennom</translation>
    </message>
    <message>
        <location filename="../views/studio/ReconfigurationStudio.cpp" line="177"/>
        <source>Make the chosen candidate the proposal and open the Diff Review</source>
        <translation>Gjør den valgte kandidaten til forslaget og åpne Gjennomgang av endringer</translation>
    </message>
    <message>
        <location filename="../views/studio/ReconfigurationStudio.cpp" line="178"/>
        <source>Changed &amp;Paths…</source>
        <translation>Endrede &amp;veier…</translation>
    </message>
    <message>
        <location filename="../views/studio/ReconfigurationStudio.cpp" line="401"/>
        <source>Open a fabric to plan its reconfiguration.</source>
        <translation>Åpne en fabric for å planlegge rekonfigureringen av den.</translation>
    </message>
    <message>
        <location filename="../views/studio/ReconfigurationStudio.cpp" line="403"/>
        <source>The installed tables are not known (File ▸ Open LFT Dump… loads them): there is nothing to plan a reconfiguration from.</source>
        <translation>De installerte tabellene er ikke kjent (Fil ▸ Åpne LFT-dump … laster dem inn): det finnes ingenting å planlegge en rekonfigurering ut fra.</translation>
    </message>
    <message>
        <location filename="../views/studio/ReconfigurationStudio.cpp" line="408"/>
        <source>Right-click a cable, a switch or a host on the map for a what-if event, or plan the current partition, policy and weight edits.</source>
        <translation>Høyreklikk en kabel, en svitsj eller en vert på kartet for en hva-om-hendelse, eller planlegg de gjeldende endringene i partisjoner, regler og vekter.</translation>
    </message>
    <message>
        <location filename="../views/studio/ReconfigurationStudio.cpp" line="411"/>
        <source>Press Plan to plan the candidates for: %1</source>
        <translation>Trykk Planlegg for å planlegge kandidatene for: %1</translation>
    </message>
    <message>
        <location filename="../views/studio/ReconfigurationStudio.cpp" line="432"/>
        <source>The partitions, policies or weights changed since this plan: plan again to see their effect.</source>
        <translation>Partisjonene, reglene eller vektene er endret siden denne planen: planlegg på nytt for å se virkningen.</translation>
    </message>
    <message>
        <location filename="../views/studio/ReconfigurationStudio.cpp" line="467"/>
        <source>Pick at least one candidate: an engine, SlimUpdate or metabase.</source>
        <translation>Velg minst én kandidat: en motor, SlimUpdate eller metabase.</translation>
    </message>
    <message>
        <location filename="../views/studio/ReconfigurationStudio.cpp" line="475"/>
        <source>the current edits</source>
        <translation>de gjeldende endringene</translation>
    </message>
    <message>
        <location filename="../views/studio/ReconfigurationStudio.cpp" line="479"/>
        <source>Cannot apply the events: %1</source>
        <translation>Kan ikke bruke hendelsene: %1</translation>
    </message>
    <message numerus="yes">
        <location filename="../views/studio/ReconfigurationStudio.cpp" line="504"/>
        <source>Planning %n candidate(s) for %1…</source>
        <translation>
            <numerusform>Planlegger %n kandidat for %1…</numerusform>
            <numerusform>Planlegger %n kandidater for %1…</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../views/studio/ReconfigurationStudio.cpp" line="523"/>
        <source>Planning cancelled.</source>
        <translation>Planleggingen ble avbrutt.</translation>
    </message>
    <message>
        <location filename="../views/studio/ReconfigurationStudio.cpp" line="550"/>
        <source>Planning failed: %1</source>
        <translation>Planleggingen mislyktes: %1</translation>
    </message>
    <message numerus="yes">
        <location filename="../views/studio/ReconfigurationStudio.cpp" line="560"/>
        <source>%1: %2 of %n candidate(s) valid. Choose one to see its load on the map, then Review.</source>
        <translation>
            <numerusform>%1: %2 av %n kandidat er gyldig. Velg en for å se lasten på kartet, og gå deretter gjennom.</numerusform>
            <numerusform>%1: %2 av %n kandidater er gyldige. Velg én for å se lasten på kartet, og gå deretter gjennom.</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../views/studio/ReconfigurationStudio.cpp" line="596"/>
        <source>%1 of %2 pairs compared</source>
        <translation>%1 av %2 par sammenlignet</translation>
    </message>
    <message>
        <location filename="../views/studio/ReconfigurationStudio.cpp" line="605"/>
        <source>Reachable: %1
Loop-free: %2
Deadlock-free: %3</source>
        <translation>Nåbar: %1
Løkkefri: %2
Vranglåsfri: %3</translation>
    </message>
    <message>
        <location filename="../views/studio/ReconfigurationStudio.cpp" line="607"/>
        <source>—</source>
        <translation>—</translation>
    </message>
    <message>
        <location filename="../views/studio/ReconfigurationStudio.cpp" line="608"/>
        <source>%1 ms</source>
        <translation>%1 ms</translation>
    </message>
    <message>
        <location filename="../views/studio/ReconfigurationStudio.cpp" line="608"/>
        <source>%1 s</source>
        <translation>%1 s</translation>
    </message>
    <message>
        <location filename="../views/studio/ReconfigurationStudio.cpp" line="632"/>
        <source>Choose a candidate to review.</source>
        <translation>Velg en kandidat å gå gjennom.</translation>
    </message>
    <message>
        <location filename="../views/studio/ReconfigurationStudio.cpp" line="637"/>
        <source>Studio: %1 for %2</source>
        <translation>Studio: %1 for %2</translation>
    </message>
    <message>
        <location filename="../views/studio/ReconfigurationStudio.cpp" line="646"/>
        <source>%1 is the proposal now: review it in the Diff Review, then Approve.</source>
        <translation>%1 er forslaget nå: gå gjennom det i Gjennomgang av endringer, og godkjenn deretter.</translation>
    </message>
    <message>
        <location filename="../views/studio/ReconfigurationStudio.cpp" line="673"/>
        <source>Changed Paths: %1</source>
        <translation>Endrede veier: %1</translation>
    </message>
    <message>
        <location filename="../views/studio/ReconfigurationStudio.cpp" line="675"/>
        <source>First %1 of %2 changed source → destination paths</source>
        <translation>De første %1 av %2 endrede veier fra kilde → mål</translation>
    </message>
    <message>
        <location filename="../views/studio/ReconfigurationStudio.cpp" line="677"/>
        <source>%1 changed source → destination paths</source>
        <translation>%1 endrede veier fra kilde → mål</translation>
    </message>
    <message>
        <location filename="../views/studio/ReconfigurationStudio.cpp" line="681"/>
        <source>Source</source>
        <translation>Kilde</translation>
    </message>
    <message>
        <location filename="../views/studio/ReconfigurationStudio.cpp" line="681"/>
        <source>Destination</source>
        <translation>Mål</translation>
    </message>
</context>
<context>
    <name>weft::RoutingKeysPanel</name>
    <message>
        <location filename="../views/studio/RoutingKeysPanel.cpp" line="39"/>
        <location filename="../views/studio/RoutingKeysPanel.cpp" line="106"/>
        <location filename="../views/studio/RoutingKeysPanel.cpp" line="153"/>
        <source>No hosts chosen: select the job&apos;s hosts on the map.</source>
        <translation>Ingen verter er valgt: velg jobbens verter på kartet.</translation>
    </message>
    <message>
        <location filename="../views/studio/RoutingKeysPanel.cpp" line="42"/>
        <source>Use Map &amp;Selection</source>
        <translation>Bruk &amp;utvalget på kartet</translation>
    </message>
    <message>
        <location filename="../views/studio/RoutingKeysPanel.cpp" line="48"/>
        <source>ARK (fixed per application)</source>
        <translation>ARK (fast per applikasjon)</translation>
    </message>
    <message>
        <location filename="../views/studio/RoutingKeysPanel.cpp" line="49"/>
        <source>NRK (shifted against the others)</source>
        <translation>NRK (forskjøvet mot de andre)</translation>
    </message>
    <message>
        <location filename="../views/studio/RoutingKeysPanel.cpp" line="52"/>
        <source>Nearest neighbour (±x, ±y, ±z)</source>
        <translation>Nærmeste nabo (±x, ±y, ±z)</translation>
    </message>
    <message>
        <location filename="../views/studio/RoutingKeysPanel.cpp" line="53"/>
        <source>Shifts (every r → r + c)</source>
        <translation>Forskyvninger (hver r → r + c)</translation>
    </message>
    <message>
        <location filename="../views/studio/RoutingKeysPanel.cpp" line="54"/>
        <source>Ring (+1)</source>
        <translation>Ring (+1)</translation>
    </message>
    <message>
        <location filename="../views/studio/RoutingKeysPanel.cpp" line="55"/>
        <source>Recursive doubling</source>
        <translation>Rekursiv dobling</translation>
    </message>
    <message>
        <location filename="../views/studio/RoutingKeysPanel.cpp" line="68"/>
        <source>Phase</source>
        <translation>Fase</translation>
    </message>
    <message>
        <location filename="../views/studio/RoutingKeysPanel.cpp" line="68"/>
        <source>Offset</source>
        <translation>Forskyvning</translation>
    </message>
    <message>
        <location filename="../views/studio/RoutingKeysPanel.cpp" line="68"/>
        <source>Flows</source>
        <translation>Strømmer</translation>
    </message>
    <message>
        <location filename="../views/studio/RoutingKeysPanel.cpp" line="68"/>
        <source>Δ</source>
        <translation>Δ</translation>
    </message>
    <message>
        <location filename="../views/studio/RoutingKeysPanel.cpp" line="68"/>
        <source>Slots</source>
        <translation>Plasser</translation>
    </message>
    <message>
        <location filename="../views/studio/RoutingKeysPanel.cpp" line="68"/>
        <source>DmodK max</source>
        <translation>DmodK maks.</translation>
    </message>
    <message>
        <location filename="../views/studio/RoutingKeysPanel.cpp" line="69"/>
        <source>DmodK mean</source>
        <translation>DmodK snitt</translation>
    </message>
    <message>
        <location filename="../views/studio/RoutingKeysPanel.cpp" line="69"/>
        <source>Keyed max</source>
        <translation>Med nøkler maks.</translation>
    </message>
    <message>
        <location filename="../views/studio/RoutingKeysPanel.cpp" line="69"/>
        <source>Keyed mean</source>
        <translation>Med nøkler snitt</translation>
    </message>
    <message>
        <location filename="../views/studio/RoutingKeysPanel.cpp" line="69"/>
        <source>Intra max</source>
        <translation>Intern maks.</translation>
    </message>
    <message>
        <location filename="../views/studio/RoutingKeysPanel.cpp" line="69"/>
        <source>Contention-free</source>
        <translation>Konfliktfri</translation>
    </message>
    <message>
        <location filename="../views/studio/RoutingKeysPanel.cpp" line="75"/>
        <source>&amp;Plan Keys</source>
        <translation>&amp;Planlegg nøkler</translation>
    </message>
    <message>
        <location filename="../views/studio/RoutingKeysPanel.cpp" line="78"/>
        <source>&amp;Review</source>
        <translation>&amp;Gå gjennom</translation>
    </message>
    <message>
        <location filename="../views/studio/RoutingKeysPanel.cpp" line="80"/>
        <source>Make the tables that realise the keys the proposal, in the Diff Review</source>
        <translation>Gjør tabellene som realiserer nøklene, til forslaget i Gjennomgang av endringer</translation>
    </message>
    <message>
        <location filename="../views/studio/RoutingKeysPanel.cpp" line="88"/>
        <source>Scheme:</source>
        <translation>Skjema:</translation>
    </message>
    <message>
        <location filename="../views/studio/RoutingKeysPanel.cpp" line="89"/>
        <source>Pattern:</source>
        <translation>Mønster:</translation>
    </message>
    <message>
        <location filename="../views/studio/RoutingKeysPanel.cpp" line="138"/>
        <location filename="../views/studio/RoutingKeysPanel.cpp" line="249"/>
        <source>No fabric is open.</source>
        <translation>Ingen fabric er åpen.</translation>
    </message>
    <message>
        <location filename="../views/studio/RoutingKeysPanel.cpp" line="144"/>
        <source>Routing keys need a full 2- or 3-level fat tree: %1</source>
        <translation>Rutingnøkler krever et fullt fat-tree med 2 eller 3 nivåer: %1</translation>
    </message>
    <message numerus="yes">
        <location filename="../views/studio/RoutingKeysPanel.cpp" line="159"/>
        <source>%n host(s), one rank each: %1</source>
        <translation>
            <numerusform>%n vert, én rang hver: %1</numerusform>
            <numerusform>%n verter, én rang hver: %1</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../views/studio/RoutingKeysPanel.cpp" line="191"/>
        <source>Choose the job&apos;s hosts on the map first (Use Map Selection).</source>
        <translation>Velg jobbens verter på kartet først (Bruk utvalget på kartet).</translation>
    </message>
    <message>
        <location filename="../views/studio/RoutingKeysPanel.cpp" line="207"/>
        <source>%1, %2 on %3: LMC %4 gives %5 key offsets for %6 phases%7; %8 of %9 LIDs, %10. Largest LMC that fits: %11.</source>
        <translation>%1, %2 på %3: LMC %4 gir %5 nøkkelforskyvninger for %6 faser%7; %8 av %9 LID-er, %10. Største LMC som får plass: %11.</translation>
    </message>
    <message>
        <location filename="../views/studio/RoutingKeysPanel.cpp" line="212"/>
        <source> (too few: offsets must be reprogrammed between phases)</source>
        <translation> (for få: forskyvningene må programmeres på nytt mellom fasene)</translation>
    </message>
    <message>
        <location filename="../views/studio/RoutingKeysPanel.cpp" line="214"/>
        <source>fits</source>
        <translation>får plass</translation>
    </message>
    <message>
        <location filename="../views/studio/RoutingKeysPanel.cpp" line="214"/>
        <source>does not fit</source>
        <translation>får ikke plass</translation>
    </message>
    <message>
        <location filename="../views/studio/RoutingKeysPanel.cpp" line="229"/>
        <source>yes</source>
        <translation>ja</translation>
    </message>
    <message>
        <location filename="../views/studio/RoutingKeysPanel.cpp" line="229"/>
        <source>no</source>
        <translation>nei</translation>
    </message>
    <message>
        <location filename="../views/studio/RoutingKeysPanel.cpp" line="233"/>
        <source>Planned. Review makes the keyed tables the proposal.</source>
        <translation>Planlagt. Gå gjennom gjør tabellene med nøkler til forslaget.</translation>
    </message>
    <message>
        <location filename="../views/studio/RoutingKeysPanel.cpp" line="245"/>
        <source>Plan the keys first.</source>
        <translation>Planlegg nøklene først.</translation>
    </message>
    <message>
        <location filename="../views/studio/RoutingKeysPanel.cpp" line="251"/>
        <source>The installed tables are not known: a candidate has nothing to be compared with.</source>
        <translation>De installerte tabellene er ikke kjent: en kandidat har ingenting å sammenlignes med.</translation>
    </message>
    <message numerus="yes">
        <location filename="../views/studio/RoutingKeysPanel.cpp" line="265"/>
        <source>routing keys for %n host(s)</source>
        <translation>
            <numerusform>rutingnøkler for %n vert</numerusform>
            <numerusform>rutingnøkler for %n verter</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../views/studio/RoutingKeysPanel.cpp" line="278"/>
        <source>Routing keys: %1</source>
        <translation>Rutingnøkler: %1</translation>
    </message>
    <message>
        <location filename="../views/studio/RoutingKeysPanel.cpp" line="281"/>
        <source>The keyed tables are the proposal: see the Diff Review.</source>
        <translation>Tabellene med nøkler er forslaget: se Gjennomgang av endringer.</translation>
    </message>
</context>
<context>
    <name>weft::RoutingPreview</name>
    <message>
        <location filename="../views/review/RoutingPreview.cpp" line="39"/>
        <source>yes</source>
        <translation>ja</translation>
    </message>
    <message>
        <location filename="../views/review/RoutingPreview.cpp" line="39"/>
        <source>no</source>
        <translation>nei</translation>
    </message>
    <message>
        <location filename="../views/review/RoutingPreview.cpp" line="274"/>
        <source>Proposed: %1</source>
        <translation>Foreslått: %1</translation>
    </message>
    <message>
        <location filename="../views/review/RoutingPreview.cpp" line="276"/>
        <source>Current: %1</source>
        <translation>Gjeldende: %1</translation>
    </message>
    <message>
        <location filename="../views/review/RoutingPreview.cpp" line="57"/>
        <source>Within partitions, all to all</source>
        <translation>Innen partisjoner, alle til alle</translation>
    </message>
    <message>
        <location filename="../views/review/RoutingPreview.cpp" line="58"/>
        <source>All to all</source>
        <translation>Alle til alle</translation>
    </message>
    <message>
        <location filename="../views/review/RoutingPreview.cpp" line="59"/>
        <source>Uniform random</source>
        <translation>Jevnt tilfeldig</translation>
    </message>
    <message>
        <location filename="../views/review/RoutingPreview.cpp" line="60"/>
        <source>Shift by one</source>
        <translation>Forskyvning med én</translation>
    </message>
    <message>
        <location filename="../views/review/RoutingPreview.cpp" line="61"/>
        <source>Random bisection</source>
        <translation>Tilfeldig todeling</translation>
    </message>
    <message>
        <location filename="../views/review/RoutingPreview.cpp" line="62"/>
        <source>Effective bisection, samples:</source>
        <translation>Effektiv todeling, utvalg:</translation>
    </message>
    <message>
        <location filename="../views/review/RoutingPreview.cpp" line="68"/>
        <source>&amp;Preview</source>
        <translation>&amp;Forhåndsvis</translation>
    </message>
    <message>
        <location filename="../views/review/RoutingPreview.cpp" line="70"/>
        <source>Route the fabric with this engine and compare with the current tables</source>
        <translation>Rut nettet med denne motoren og sammenlign med de gjeldende tabellene</translation>
    </message>
    <message>
        <location filename="../views/review/RoutingPreview.cpp" line="71"/>
        <source>Cancel</source>
        <translation>Avbryt</translation>
    </message>
    <message>
        <location filename="../views/review/RoutingPreview.cpp" line="81"/>
        <source>Engine:</source>
        <translation>Motor:</translation>
    </message>
    <message>
        <location filename="../views/review/RoutingPreview.cpp" line="82"/>
        <source>Traffic:</source>
        <translation>Trafikk:</translation>
    </message>
    <message>
        <location filename="../views/review/RoutingPreview.cpp" line="95"/>
        <location filename="../views/review/RoutingPreview.cpp" line="354"/>
        <location filename="../views/review/RoutingPreview.cpp" line="393"/>
        <source>Measure</source>
        <translation>Mål</translation>
    </message>
    <message>
        <location filename="../views/review/RoutingPreview.cpp" line="95"/>
        <location filename="../views/review/RoutingPreview.cpp" line="354"/>
        <location filename="../views/review/RoutingPreview.cpp" line="495"/>
        <location filename="../views/review/RoutingPreview.cpp" line="528"/>
        <source>Current</source>
        <translation>Gjeldende</translation>
    </message>
    <message>
        <location filename="../views/review/RoutingPreview.cpp" line="95"/>
        <location filename="../views/review/RoutingPreview.cpp" line="354"/>
        <location filename="../views/review/RoutingPreview.cpp" line="495"/>
        <location filename="../views/review/RoutingPreview.cpp" line="528"/>
        <source>Proposed</source>
        <translation>Foreslått</translation>
    </message>
    <message>
        <location filename="../views/review/RoutingPreview.cpp" line="108"/>
        <source>Warnings and problems of both routings appear here.</source>
        <translation>Advarsler og problemer for begge rutingene vises her.</translation>
    </message>
    <message>
        <location filename="../views/review/RoutingPreview.cpp" line="121"/>
        <source>Load per switch-to-switch link</source>
        <translation>Last per lenke mellom svitsjer</translation>
    </message>
    <message>
        <location filename="../views/review/RoutingPreview.cpp" line="121"/>
        <source>Links</source>
        <translation>Lenker</translation>
    </message>
    <message>
        <location filename="../views/review/RoutingPreview.cpp" line="123"/>
        <source>Effective bisection bandwidth (fraction)</source>
        <translation>Effektiv todelingsbåndbredde (andel)</translation>
    </message>
    <message>
        <location filename="../views/review/RoutingPreview.cpp" line="123"/>
        <source>Samples</source>
        <translation>Utvalg</translation>
    </message>
    <message>
        <location filename="../views/review/RoutingPreview.cpp" line="268"/>
        <source>Routing with %1…</source>
        <translation>Ruter med %1 …</translation>
    </message>
    <message>
        <location filename="../views/review/RoutingPreview.cpp" line="294"/>
        <source>Preview cancelled.</source>
        <translation>Forhåndsvisningen er avbrutt.</translation>
    </message>
    <message>
        <location filename="../views/review/RoutingPreview.cpp" line="316"/>
        <source>Routing</source>
        <translation>Ruting</translation>
    </message>
    <message>
        <location filename="../views/review/RoutingPreview.cpp" line="316"/>
        <source>Validating</source>
        <translation>Validerer</translation>
    </message>
    <message>
        <location filename="../views/review/RoutingPreview.cpp" line="316"/>
        <source>Measuring load</source>
        <translation>Måler last</translation>
    </message>
    <message>
        <location filename="../views/review/RoutingPreview.cpp" line="317"/>
        <source>Sampling bisections</source>
        <translation>Trekker todelinger</translation>
    </message>
    <message>
        <location filename="../views/review/RoutingPreview.cpp" line="317"/>
        <source>Done</source>
        <translation>Ferdig</translation>
    </message>
    <message>
        <location filename="../views/review/RoutingPreview.cpp" line="326"/>
        <source>%1…</source>
        <translation>%1 …</translation>
    </message>
    <message>
        <location filename="../views/review/RoutingPreview.cpp" line="335"/>
        <source>The preview failed: %1</source>
        <translation>Forhåndsvisningen mislyktes: %1</translation>
    </message>
    <message>
        <location filename="../views/review/RoutingPreview.cpp" line="341"/>
        <source>Routing Preview: %1</source>
        <translation>Forhåndsvisning av ruting: %1</translation>
    </message>
    <message>
        <location filename="../views/review/RoutingPreview.cpp" line="367"/>
        <source>Open a fabric to preview its routing.</source>
        <translation>Åpne et nett for å forhåndsvise rutingen.</translation>
    </message>
    <message>
        <location filename="../views/review/RoutingPreview.cpp" line="369"/>
        <source>Current tables: %1. Pick an engine and press Preview.</source>
        <translation>Gjeldende tabeller: %1. Velg en motor og trykk Forhåndsvis.</translation>
    </message>
    <message>
        <location filename="../views/review/RoutingPreview.cpp" line="371"/>
        <source>No current tables are known (File ▸ Open LFT Dump… loads them). Pick an engine and press Preview.</source>
        <translation>Ingen gjeldende tabeller er kjent (Fil ▸ Åpne LFT-dump … laster dem inn). Velg en motor og trykk Forhåndsvis.</translation>
    </message>
    <message>
        <location filename="../views/review/RoutingPreview.cpp" line="393"/>
        <source>Current: none</source>
        <translation>Gjeldende: ingen</translation>
    </message>
    <message>
        <location filename="../views/review/RoutingPreview.cpp" line="394"/>
        <source>—</source>
        <translation>—</translation>
    </message>
    <message>
        <location filename="../views/review/RoutingPreview.cpp" line="406"/>
        <source>passes</source>
        <translation>består</translation>
    </message>
    <message>
        <location filename="../views/review/RoutingPreview.cpp" line="406"/>
        <source>fails</source>
        <translation>feiler</translation>
    </message>
    <message>
        <location filename="../views/review/RoutingPreview.cpp" line="408"/>
        <source>Validation</source>
        <translation>Validering</translation>
    </message>
    <message>
        <location filename="../views/review/RoutingPreview.cpp" line="411"/>
        <source>Partition pairs not delivered</source>
        <translation>Partisjonspar som ikke leveres</translation>
    </message>
    <message>
        <location filename="../views/review/RoutingPreview.cpp" line="412"/>
        <source>Forwarding loops</source>
        <translation>Videresendingsløkker</translation>
    </message>
    <message>
        <location filename="../views/review/RoutingPreview.cpp" line="413"/>
        <source>Free of credit loops</source>
        <translation>Fri for kredittløkker</translation>
    </message>
    <message>
        <location filename="../views/review/RoutingPreview.cpp" line="416"/>
        <source>Isolation policy violations</source>
        <translation>Brudd på isolasjonsregler</translation>
    </message>
    <message>
        <location filename="../views/review/RoutingPreview.cpp" line="417"/>
        <source>Highest link load</source>
        <translation>Høyeste lenkelast</translation>
    </message>
    <message>
        <location filename="../views/review/RoutingPreview.cpp" line="418"/>
        <source>Mean link load</source>
        <translation>Gjennomsnittlig lenkelast</translation>
    </message>
    <message>
        <location filename="../views/review/RoutingPreview.cpp" line="419"/>
        <source>Spread of link load (σ)</source>
        <translation>Spredning i lenkelast (σ)</translation>
    </message>
    <message>
        <location filename="../views/review/RoutingPreview.cpp" line="420"/>
        <source>Most routes on one link</source>
        <translation>Flest ruter på én lenke</translation>
    </message>
    <message>
        <location filename="../views/review/RoutingPreview.cpp" line="421"/>
        <source>Links shared by partitions</source>
        <translation>Lenker delt av partisjoner</translation>
    </message>
    <message>
        <location filename="../views/review/RoutingPreview.cpp" line="422"/>
        <source>Inter-partition interference</source>
        <translation>Interferens mellom partisjoner</translation>
    </message>
    <message>
        <location filename="../views/review/RoutingPreview.cpp" line="423"/>
        <source>Flows not delivered</source>
        <translation>Strømmer som ikke leveres</translation>
    </message>
    <message>
        <location filename="../views/review/RoutingPreview.cpp" line="425"/>
        <source>%1 % (slowest flow %2 GB/s)</source>
        <translation>%1 % (tregeste flyt %2 GB/s)</translation>
    </message>
    <message>
        <location filename="../views/review/RoutingPreview.cpp" line="430"/>
        <source>Throughput (fluid max-min)</source>
        <translation>Gjennomstrømning (flytmodell, maks-min)</translation>
    </message>
    <message>
        <location filename="../views/review/RoutingPreview.cpp" line="435"/>
        <source>Every flow of the traffic model as a steady stream along its route, all sharing each cable max-min fairly: their total as a share of what the senders&apos; own links carry, and the slowest flow</source>
        <translation>Hver flyt i trafikkmodellen som en jevn strøm langs ruten sin, der alle deler hver kabel maks-min-rettferdig: summen deres som andel av det sendernes egne lenker bærer, og den tregeste flyten</translation>
    </message>
    <message>
        <location filename="../views/review/RoutingPreview.cpp" line="427"/>
        <source>not rated</source>
        <translation>ikke vurdert</translation>
    </message>
    <message>
        <location filename="../views/review/RoutingPreview.cpp" line="203"/>
        <source>This proposal no longer holds: %1.</source>
        <translation>Dette forslaget gjelder ikke lenger: %1.</translation>
    </message>
    <message>
        <location filename="../views/review/RoutingPreview.cpp" line="438"/>
        <source>not computed</source>
        <translation>ikke beregnet</translation>
    </message>
    <message>
        <location filename="../views/review/RoutingPreview.cpp" line="441"/>
        <source>Effective bisection bandwidth (mean)</source>
        <translation>Effektiv todelingsbåndbredde (snitt)</translation>
    </message>
    <message>
        <location filename="../views/review/RoutingPreview.cpp" line="451"/>
        <source>  no warnings</source>
        <translation>  ingen advarsler</translation>
    </message>
    <message>
        <location filename="../views/review/RoutingPreview.cpp" line="456"/>
        <source>%1: %2</source>
        <translation>%1: %2</translation>
    </message>
    <message>
        <location filename="../views/review/RoutingPreview.cpp" line="464"/>
        <source>%1 routes the fabric and passes validation.</source>
        <translation>%1 ruter nettet og består valideringen.</translation>
    </message>
    <message>
        <location filename="../views/review/RoutingPreview.cpp" line="465"/>
        <source>%1 routes the fabric, but validation fails: see the problems below.</source>
        <translation>%1 ruter nettet, men valideringen feiler: se problemene nedenfor.</translation>
    </message>
</context>
<context>
    <name>weft::SubnetManagersPanel</name>
    <message>
        <location filename="../views/studio/SubnetManagersPanel.cpp" line="26"/>
        <source>master</source>
        <translation>master</translation>
    </message>
    <message>
        <location filename="../views/studio/SubnetManagersPanel.cpp" line="28"/>
        <source>standby</source>
        <translation>standby</translation>
    </message>
    <message>
        <location filename="../views/studio/SubnetManagersPanel.cpp" line="30"/>
        <source>discovering</source>
        <translation>oppdager</translation>
    </message>
    <message>
        <location filename="../views/studio/SubnetManagersPanel.cpp" line="32"/>
        <source>not active</source>
        <translation>ikke aktiv</translation>
    </message>
    <message>
        <location filename="../views/studio/SubnetManagersPanel.cpp" line="34"/>
        <location filename="../views/studio/SubnetManagersPanel.cpp" line="185"/>
        <source>not running</source>
        <translation>kjører ikke</translation>
    </message>
    <message>
        <location filename="../views/studio/SubnetManagersPanel.cpp" line="36"/>
        <location filename="../views/studio/SubnetManagersPanel.cpp" line="183"/>
        <location filename="../views/studio/SubnetManagersPanel.cpp" line="184"/>
        <source>unknown</source>
        <translation>ukjent</translation>
    </message>
    <message>
        <location filename="../views/studio/SubnetManagersPanel.cpp" line="43"/>
        <source>named in the subnet target</source>
        <translation>navngitt i subnettmålet</translation>
    </message>
    <message>
        <location filename="../views/studio/SubnetManagersPanel.cpp" line="45"/>
        <source>its options file&apos;s guid</source>
        <translation>guid i innstillingsfilen dens</translation>
    </message>
    <message>
        <location filename="../views/studio/SubnetManagersPanel.cpp" line="47"/>
        <source>the port its log says it bound to</source>
        <translation>porten loggen sier at den bandt seg til</translation>
    </message>
    <message>
        <location filename="../views/studio/SubnetManagersPanel.cpp" line="71"/>
        <source>SM</source>
        <translation>SM</translation>
    </message>
    <message>
        <location filename="../views/studio/SubnetManagersPanel.cpp" line="71"/>
        <source>State</source>
        <translation>Tilstand</translation>
    </message>
    <message>
        <location filename="../views/studio/SubnetManagersPanel.cpp" line="71"/>
        <source>Priority</source>
        <translation>Prioritet</translation>
    </message>
    <message>
        <location filename="../views/studio/SubnetManagersPanel.cpp" line="71"/>
        <source>Port GUID</source>
        <translation>Port-GUID</translation>
    </message>
    <message>
        <location filename="../views/studio/SubnetManagersPanel.cpp" line="71"/>
        <source>LID</source>
        <translation>LID</translation>
    </message>
    <message>
        <location filename="../views/studio/SubnetManagersPanel.cpp" line="71"/>
        <source>PID</source>
        <translation>PID</translation>
    </message>
    <message>
        <location filename="../views/studio/SubnetManagersPanel.cpp" line="71"/>
        <source>Engine</source>
        <translation>Motor</translation>
    </message>
    <message>
        <location filename="../views/studio/SubnetManagersPanel.cpp" line="71"/>
        <source>Problems</source>
        <translation>Problemer</translation>
    </message>
    <message>
        <location filename="../views/studio/SubnetManagersPanel.cpp" line="82"/>
        <source>&amp;Refresh</source>
        <translation>&amp;Oppdater</translation>
    </message>
    <message>
        <location filename="../views/studio/SubnetManagersPanel.cpp" line="84"/>
        <source>Ask every SM of the subnet again (SMInfo), and read each OpenSM&apos;s files</source>
        <translation>Spør hver SM i subnettet på nytt (SMInfo), og les filene til hver OpenSM</translation>
    </message>
    <message>
        <location filename="../views/studio/SubnetManagersPanel.cpp" line="86"/>
        <source>Commit &amp;Target…</source>
        <translation>&amp;Mål for innføring …</translation>
    </message>
    <message>
        <location filename="../views/studio/SubnetManagersPanel.cpp" line="88"/>
        <source>Name the subnet&apos;s SMs and their files (Fabric ▸ Commit Target…)</source>
        <translation>Navngi subnettets SM-er og filene deres (Fabric ▸ Mål for innføring …)</translation>
    </message>
    <message>
        <location filename="../views/studio/SubnetManagersPanel.cpp" line="134"/>
        <source>Asking the subnet&apos;s SMs through %1…</source>
        <translation>Spør subnettets SM-er gjennom %1 …</translation>
    </message>
    <message>
        <location filename="../views/studio/SubnetManagersPanel.cpp" line="161"/>
        <source>No subnet target: Fabric ▸ Commit Target… names the subnet&apos;s SMs</source>
        <translation>Ikke noe subnettmål: Fabric ▸ Mål for innføring … navngir subnettets SM-er</translation>
    </message>
    <message>
        <location filename="../views/studio/SubnetManagersPanel.cpp" line="169"/>
        <source>not asked yet</source>
        <translation>ikke spurt ennå</translation>
    </message>
    <message>
        <location filename="../views/studio/SubnetManagersPanel.cpp" line="170"/>
        <source>Subnet %1 (%2): not asked yet. Refresh asks the fabric which SM is master.</source>
        <translation>Subnett %1 (%2): ikke spurt ennå. Oppdater spør fabricen hvilken SM som er master.</translation>
    </message>
    <message>
        <location filename="../views/studio/SubnetManagersPanel.cpp" line="185"/>
        <source>minhop (default)</source>
        <translation>minhop (standard)</translation>
    </message>
    <message>
        <location filename="../views/studio/SubnetManagersPanel.cpp" line="186"/>
        <source>none</source>
        <translation>ingen</translation>
    </message>
    <message>
        <location filename="../views/studio/SubnetManagersPanel.cpp" line="188"/>
        <source>From %1</source>
        <translation>Kilde: %1</translation>
    </message>
    <message>
        <location filename="../views/studio/SubnetManagersPanel.cpp" line="188"/>
        <source>Give &quot;port_guid&quot; in the target, or guid in its options</source>
        <translation>Oppgi «port_guid» i målet, eller guid i innstillingsfilen</translation>
    </message>
    <message>
        <location filename="../views/studio/SubnetManagersPanel.cpp" line="197"/>
        <source>does not answer SMInfo</source>
        <translation>svarer ikke på SMInfo</translation>
    </message>
    <message>
        <location filename="../views/studio/SubnetManagersPanel.cpp" line="198"/>
        <source>an unnamed node</source>
        <translation>en node uten navn</translation>
    </message>
    <message>
        <location filename="../views/studio/SubnetManagersPanel.cpp" line="199"/>
        <source>not in the target</source>
        <translation>ikke i målet</translation>
    </message>
    <message>
        <location filename="../views/studio/SubnetManagersPanel.cpp" line="200"/>
        <source>runs on %1: a rogue or forgotten SM can take over with its own partitions and routing</source>
        <translation>kjører på %1: en uautorisert eller glemt SM kan ta over med egne partisjoner og egen ruting</translation>
    </message>
    <message>
        <location filename="../views/studio/SubnetManagersPanel.cpp" line="201"/>
        <source>An SM on the subnet that the subnet target does not name</source>
        <translation>En SM i subnettet som subnettmålet ikke navngir</translation>
    </message>
    <message numerus="yes">
        <location filename="../views/studio/SubnetManagersPanel.cpp" line="218"/>
        <source>%n SM(s) on the subnet that the target does not name: a rogue or forgotten SM can take over with its own partitions and routing.</source>
        <translation>
            <numerusform>%n SM i subnettet som målet ikke navngir: en uautorisert eller glemt SM kan ta over med egne partisjoner og egen ruting.</numerusform>
            <numerusform>%n SM-er i subnettet som målet ikke navngir: en uautorisert eller glemt SM kan ta over med egne partisjoner og egen ruting.</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../views/studio/SubnetManagersPanel.cpp" line="222"/>
        <source>%1 SMs say they are master: the subnet has two masters.</source>
        <translation>%1 SM-er sier at de er master: subnettet har flere mastere.</translation>
    </message>
    <message>
        <location filename="../views/studio/SubnetManagersPanel.cpp" line="224"/>
        <source>No SM on the subnet says it is master.</source>
        <translation>Ingen SM i subnettet sier at den er master.</translation>
    </message>
    <message>
        <location filename="../views/studio/SubnetManagersPanel.cpp" line="226"/>
        <source>The subnet&apos;s SMs could not be asked: %1</source>
        <translation>Subnettets SM-er kunne ikke spørres: %1</translation>
    </message>
    <message numerus="yes">
        <location filename="../views/studio/SubnetManagersPanel.cpp" line="231"/>
        <source>Subnet %1: %n SM(s) in the target (%2), asked at %3 through %4.</source>
        <translation>
            <numerusform>Subnett %1: %n SM i målet (%2), spurt kl. %3 gjennom %4.</numerusform>
            <numerusform>Subnett %1: %n SM-er i målet (%2), spurt kl. %3 gjennom %4.</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../views/studio/SubnetManagersPanel.cpp" line="234"/>
        <source>A commit reaches every SM.</source>
        <translation>En innføring når hver SM.</translation>
    </message>
</context>
<context>
    <name>weft::SummaryPanel</name>
    <message>
        <location filename="../views/nodes/SummaryPanel.cpp" line="30"/>
        <source>Fabric</source>
        <translation>Fabric</translation>
    </message>
    <message>
        <location filename="../views/nodes/SummaryPanel.cpp" line="30"/>
        <source>Count</source>
        <translation>Antall</translation>
    </message>
    <message>
        <location filename="../views/nodes/SummaryPanel.cpp" line="50"/>
        <source>Switches</source>
        <translation>Svitsjer</translation>
    </message>
    <message>
        <location filename="../views/nodes/SummaryPanel.cpp" line="51"/>
        <source>Hosts (channel adapters)</source>
        <translation>Verter (kanaladaptere)</translation>
    </message>
    <message>
        <location filename="../views/nodes/SummaryPanel.cpp" line="53"/>
        <source>Routers</source>
        <translation>Rutere</translation>
    </message>
    <message>
        <location filename="../views/nodes/SummaryPanel.cpp" line="54"/>
        <source>Cables</source>
        <translation>Kabler</translation>
    </message>
    <message>
        <location filename="../views/nodes/SummaryPanel.cpp" line="55"/>
        <source>Between switches</source>
        <translation>Mellom svitsjer</translation>
    </message>
    <message>
        <location filename="../views/nodes/SummaryPanel.cpp" line="56"/>
        <source>To hosts and routers</source>
        <translation>Til verter og rutere</translation>
    </message>
    <message>
        <location filename="../views/nodes/SummaryPanel.cpp" line="57"/>
        <source>Switch tiers</source>
        <translation>Svitsjnivåer</translation>
    </message>
    <message>
        <location filename="../views/nodes/SummaryPanel.cpp" line="61"/>
        <source>Tier 1 (leaves)</source>
        <translation>Nivå 1 (løvsvitsjer)</translation>
    </message>
    <message>
        <location filename="../views/nodes/SummaryPanel.cpp" line="63"/>
        <source>Tier %1 (roots)</source>
        <translation>Nivå %1 (rotsvitsjer)</translation>
    </message>
    <message>
        <location filename="../views/nodes/SummaryPanel.cpp" line="65"/>
        <source>Tier %1</source>
        <translation>Nivå %1</translation>
    </message>
    <message>
        <location filename="../views/nodes/SummaryPanel.cpp" line="69"/>
        <source>Switches with no path to a host</source>
        <translation>Svitsjer uten vei til en vert</translation>
    </message>
    <message>
        <location filename="../views/nodes/SummaryPanel.cpp" line="70"/>
        <source>none assigned</source>
        <translation>ingen tildelt</translation>
    </message>
    <message>
        <location filename="../views/nodes/SummaryPanel.cpp" line="71"/>
        <source>%1–%2</source>
        <translation>%1–%2</translation>
    </message>
    <message>
        <location filename="../views/nodes/SummaryPanel.cpp" line="72"/>
        <source>LID range</source>
        <translation>LID-område</translation>
    </message>
    <message>
        <location filename="../views/nodes/SummaryPanel.cpp" line="73"/>
        <source>LIDs assigned</source>
        <translation>Tildelte LID-er</translation>
    </message>
</context>
<context>
    <name>weft::TelemetryDock</name>
    <message>
        <location filename="../views/telemetry/TelemetryDock.cpp" line="50"/>
        <source>Busiest links</source>
        <translation>Travleste lenker</translation>
    </message>
    <message>
        <location filename="../views/telemetry/TelemetryDock.cpp" line="51"/>
        <source>Most congested links</source>
        <translation>Mest overbelastede lenker</translation>
    </message>
    <message>
        <location filename="../views/telemetry/TelemetryDock.cpp" line="56"/>
        <source>Link</source>
        <translation>Lenke</translation>
    </message>
    <message>
        <location filename="../views/telemetry/TelemetryDock.cpp" line="56"/>
        <source>Utilisation</source>
        <translation>Utnyttelse</translation>
    </message>
    <message>
        <location filename="../views/telemetry/TelemetryDock.cpp" line="56"/>
        <source>xmit_wait/s</source>
        <translation>xmit_wait/s</translation>
    </message>
    <message>
        <location filename="../views/telemetry/TelemetryDock.cpp" line="56"/>
        <source>Errors</source>
        <translation>Feil</translation>
    </message>
    <message>
        <location filename="../views/telemetry/TelemetryDock.cpp" line="73"/>
        <source>Measured utilisation (%)</source>
        <translation>Målt utnyttelse (%)</translation>
    </message>
    <message>
        <location filename="../views/telemetry/TelemetryDock.cpp" line="74"/>
        <source>Routing model&apos;s load</source>
        <translation>Rutingmodellens last</translation>
    </message>
    <message>
        <location filename="../views/telemetry/TelemetryDock.cpp" line="81"/>
        <location filename="../views/telemetry/TelemetryDock.cpp" line="352"/>
        <source>Select a link to see its last hour.</source>
        <translation>Velg en lenke for å se den siste timen.</translation>
    </message>
    <message>
        <location filename="../views/telemetry/TelemetryDock.cpp" line="86"/>
        <source>Where the time series is read from</source>
        <translation>Hvor tidsserien leses fra</translation>
    </message>
    <message>
        <location filename="../views/telemetry/TelemetryDock.cpp" line="99"/>
        <source>Show:</source>
        <translation>Vis:</translation>
    </message>
    <message>
        <location filename="../views/telemetry/TelemetryDock.cpp" line="101"/>
        <source>Export…</source>
        <translation>Eksporter…</translation>
    </message>
    <message>
        <location filename="../views/telemetry/TelemetryDock.cpp" line="103"/>
        <source>Export the telemetry history to CSV</source>
        <translation>Eksporter telemetrihistorikken til CSV</translation>
    </message>
    <message>
        <location filename="../views/telemetry/TelemetryDock.cpp" line="113"/>
        <source>History:</source>
        <translation>Historikk:</translation>
    </message>
    <message>
        <location filename="../views/telemetry/TelemetryDock.cpp" line="149"/>
        <source>no fabric is shown</source>
        <translation>ingen fabric vises</translation>
    </message>
    <message>
        <location filename="../views/telemetry/TelemetryDock.cpp" line="181"/>
        <source>Embedded history</source>
        <translation>Innebygd historikk</translation>
    </message>
    <message>
        <location filename="../views/telemetry/TelemetryDock.cpp" line="182"/>
        <source>Prometheus server…</source>
        <translation>Prometheus-server…</translation>
    </message>
    <message>
        <location filename="../views/telemetry/TelemetryDock.cpp" line="182"/>
        <source>Prometheus at %1</source>
        <translation>Prometheus på %1</translation>
    </message>
    <message>
        <location filename="../views/telemetry/TelemetryDock.cpp" line="190"/>
        <location filename="../views/telemetry/TelemetryDock.cpp" line="199"/>
        <source>Prometheus Server</source>
        <translation>Prometheus-server</translation>
    </message>
    <message>
        <location filename="../views/telemetry/TelemetryDock.cpp" line="191"/>
        <source>The Prometheus server that scrapes `weft monitor --prometheus` (http://host:9090):</source>
        <translation>Prometheus-serveren som henter fra `weft monitor --prometheus` (http://vert:9090):</translation>
    </message>
    <message>
        <location filename="../views/telemetry/TelemetryDock.cpp" line="220"/>
        <location filename="../views/telemetry/TelemetryDock.cpp" line="224"/>
        <source>Export Telemetry History</source>
        <translation>Eksporter telemetrihistorikk</translation>
    </message>
    <message>
        <location filename="../views/telemetry/TelemetryDock.cpp" line="220"/>
        <source>CSV files (*.csv)</source>
        <translation>CSV-filer (*.csv)</translation>
    </message>
    <message>
        <location filename="../views/telemetry/TelemetryDock.cpp" line="308"/>
        <location filename="../views/telemetry/TelemetryDock.cpp" line="309"/>
        <source>n/a</source>
        <translation>i.t.</translation>
    </message>
    <message>
        <location filename="../views/telemetry/TelemetryDock.cpp" line="446"/>
        <source>Last hour of %1 ↔ %2 from %3 (solid: measured; dashed: the routing model&apos;s load of the tables held now)</source>
        <translation>Siste time for %1 ↔ %2 fra %3 (heltrukket: målt; stiplet: rutingmodellens last for tabellene som holdes nå)</translation>
    </message>
    <message>
        <location filename="../views/telemetry/TelemetryDock.cpp" line="447"/>
        <source>the embedded history</source>
        <translation>den innebygde historikken</translation>
    </message>
    <message>
        <location filename="../views/telemetry/TelemetryDock.cpp" line="146"/>
        <source>No telemetry history is recorded for this fabric.</source>
        <translation>Ingen telemetrihistorikk er lagret for denne fabricen.</translation>
    </message>
    <message>
        <location filename="../views/telemetry/TelemetryDock.cpp" line="359"/>
        <source>This desk cannot read a Prometheus server.</source>
        <translation>Dette skrivebordet kan ikke lese en Prometheus-server.</translation>
    </message>
    <message>
        <location filename="../views/telemetry/TelemetryDock.cpp" line="392"/>
        <source>Reading the last hour from %1…</source>
        <translation>Leser siste time fra %1…</translation>
    </message>
    <message>
        <location filename="../views/telemetry/TelemetryDock.cpp" line="426"/>
        <source>Measured %1 → %2</source>
        <translation>Målt %1 → %2</translation>
    </message>
    <message>
        <location filename="../views/telemetry/TelemetryDock.cpp" line="433"/>
        <source>Model %1 → %2</source>
        <translation>Modell %1 → %2</translation>
    </message>
</context>
<context>
    <name>weft::TenantListModel</name>
    <message>
        <location filename="../views/tenancy/TenantListModel.cpp" line="128"/>
        <source>Hosts without a tenant</source>
        <translation>Verter uten leietaker</translation>
    </message>
    <message numerus="yes">
        <location filename="../views/tenancy/TenantListModel.cpp" line="129"/>
        <source>%n host(s)</source>
        <translation>
            <numerusform>%n vert</numerusform>
            <numerusform>%n verter</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../views/tenancy/TenantListModel.cpp" line="147"/>
        <source>Tenant / host</source>
        <translation>Leietaker / vert</translation>
    </message>
    <message>
        <location filename="../views/tenancy/TenantListModel.cpp" line="147"/>
        <source>Hosts / GUID</source>
        <translation>Verter / GUID</translation>
    </message>
</context>
<context>
    <name>weft::VmBadgeLayer</name>
    <message>
        <location filename="../views/vswitch/VmBadges.cpp" line="258"/>
        <source>VF%1: VM, LID %2</source>
        <translation>VF%1: VM, LID %2</translation>
    </message>
    <message>
        <location filename="../views/vswitch/VmBadges.cpp" line="258"/>
        <source>VF%1: free</source>
        <translation>VF%1: ledig</translation>
    </message>
    <message numerus="yes">
        <location filename="../views/vswitch/VmBadges.cpp" line="260"/>
        <source>&lt;b&gt;%1&lt;/b&gt;: %n VM(s) on %2 VF(s)</source>
        <translation>
            <numerusform>&lt;b&gt;%1&lt;/b&gt;: %n VM på %2 VF-er</numerusform>
            <numerusform>&lt;b&gt;%1&lt;/b&gt;: %n VM-er på %2 VF-er</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../views/vswitch/VmBadges.cpp" line="261"/>
        <source>PF LID %1, vSwitch LID %2</source>
        <translation>PF-LID %1, vSwitch-LID %2</translation>
    </message>
    <message>
        <location filename="../views/vswitch/VmBadges.cpp" line="263"/>
        <source>Drag a VM onto another hypervisor to plan its migration.</source>
        <translation>Dra en VM til en annen hypervisor for å planlegge migreringen av den.</translation>
    </message>
</context>
<context>
    <name>weft::VmPanel</name>
    <message>
        <location filename="../views/vswitch/VmPanel.cpp" line="82"/>
        <source>Hypervisor / VF</source>
        <translation>Hypervisor / VF</translation>
    </message>
    <message>
        <location filename="../views/vswitch/VmPanel.cpp" line="82"/>
        <source>LID</source>
        <translation>LID</translation>
    </message>
    <message>
        <location filename="../views/vswitch/VmPanel.cpp" line="82"/>
        <source>State</source>
        <translation>Tilstand</translation>
    </message>
    <message>
        <location filename="../views/vswitch/VmPanel.cpp" line="82"/>
        <source>Weight</source>
        <translation>Vekt</translation>
    </message>
    <message>
        <location filename="../views/vswitch/VmPanel.cpp" line="91"/>
        <source>Prepopulated LIDs</source>
        <translation>Forhåndsutfylte LID-er</translation>
    </message>
    <message>
        <location filename="../views/vswitch/VmPanel.cpp" line="92"/>
        <source>Dynamic LIDs</source>
        <translation>Dynamiske LID-er</translation>
    </message>
    <message>
        <location filename="../views/vswitch/VmPanel.cpp" line="93"/>
        <source>The LID scheme migrations are planned under: prepopulated swaps the VM&apos;s LID with the destination VF&apos;s, dynamic moves it to a free VF.</source>
        <translation>LID-skjemaet migreringer planlegges etter: forhåndsutfylt bytter VM-ens LID med mål-VF-ens, dynamisk flytter den til en ledig VF.</translation>
    </message>
    <message>
        <location filename="../views/vswitch/VmPanel.cpp" line="101"/>
        <source>LID space</source>
        <translation>LID-rom</translation>
    </message>
    <message>
        <location filename="../views/vswitch/VmPanel.cpp" line="101"/>
        <source>Value</source>
        <translation>Verdi</translation>
    </message>
    <message>
        <location filename="../views/vswitch/VmPanel.cpp" line="106"/>
        <source>Boot</source>
        <translation>Start</translation>
    </message>
    <message>
        <location filename="../views/vswitch/VmPanel.cpp" line="108"/>
        <source>Shut Down</source>
        <translation>Slå av</translation>
    </message>
    <message>
        <location filename="../views/vswitch/VmPanel.cpp" line="118"/>
        <source>Plan Migration</source>
        <translation>Planlegg migrering</translation>
    </message>
    <message>
        <location filename="../views/vswitch/VmPanel.cpp" line="120"/>
        <source>Plans the selected VM&apos;s migration to the destination with ItRC, FTreeMinRC and a full re-route. Dragging a VM&apos;s dot onto another hypervisor on the map does the same.</source>
        <translation>Planlegger migreringen av den valgte VM-en til målet med ItRC, FTreeMinRC og en full omruting. Å dra prikken til en VM til en annen hypervisor på kartet gjør det samme.</translation>
    </message>
    <message>
        <location filename="../views/vswitch/VmPanel.cpp" line="126"/>
        <location filename="../views/vswitch/VmPanel.cpp" line="139"/>
        <source>ItRC</source>
        <translation>ItRC</translation>
    </message>
    <message>
        <location filename="../views/vswitch/VmPanel.cpp" line="126"/>
        <location filename="../views/vswitch/VmPanel.cpp" line="140"/>
        <source>FTreeMinRC</source>
        <translation>FTreeMinRC</translation>
    </message>
    <message>
        <location filename="../views/vswitch/VmPanel.cpp" line="126"/>
        <location filename="../views/vswitch/VmPanel.cpp" line="141"/>
        <source>Full re-route</source>
        <translation>Full omruting</translation>
    </message>
    <message>
        <location filename="../views/vswitch/VmPanel.cpp" line="127"/>
        <source>Switches touched</source>
        <translation>Berørte svitsjer</translation>
    </message>
    <message>
        <location filename="../views/vswitch/VmPanel.cpp" line="127"/>
        <source>Switches examined</source>
        <translation>Undersøkte svitsjer</translation>
    </message>
    <message>
        <location filename="../views/vswitch/VmPanel.cpp" line="127"/>
        <source>Entries changed</source>
        <translation>Endrede oppføringer</translation>
    </message>
    <message>
        <location filename="../views/vswitch/VmPanel.cpp" line="127"/>
        <source>SMPs</source>
        <translation>SMP-er</translation>
    </message>
    <message>
        <location filename="../views/vswitch/VmPanel.cpp" line="128"/>
        <source>vSwitch SMPs</source>
        <translation>vSwitch-SMP-er</translation>
    </message>
    <message>
        <location filename="../views/vswitch/VmPanel.cpp" line="128"/>
        <source>Estimated time</source>
        <translation>Beregnet tid</translation>
    </message>
    <message>
        <location filename="../views/vswitch/VmPanel.cpp" line="128"/>
        <source>Update order</source>
        <translation>Oppdateringsrekkefølge</translation>
    </message>
    <message>
        <location filename="../views/vswitch/VmPanel.cpp" line="129"/>
        <source>Drift: entries</source>
        <translation>Avvik: oppføringer</translation>
    </message>
    <message>
        <location filename="../views/vswitch/VmPanel.cpp" line="129"/>
        <source>Drift: blocks</source>
        <translation>Avvik: blokker</translation>
    </message>
    <message>
        <location filename="../views/vswitch/VmPanel.cpp" line="129"/>
        <source>Heaviest cable (fresh)</source>
        <translation>Tyngste kabel (fersk)</translation>
    </message>
    <message>
        <location filename="../views/vswitch/VmPanel.cpp" line="129"/>
        <source>Warnings</source>
        <translation>Advarsler</translation>
    </message>
    <message>
        <location filename="../views/vswitch/VmPanel.cpp" line="147"/>
        <source>Apply</source>
        <translation>Bruk</translation>
    </message>
    <message>
        <location filename="../views/vswitch/VmPanel.cpp" line="149"/>
        <source>Moves the what-if state on to this plan&apos;s result; the next migration starts from it. The document&apos;s fabric and tables stay as they are.</source>
        <translation>Flytter hva-om-tilstanden videre til resultatet av denne planen; neste migrering starter derfra. Dokumentets fabric og tabeller forblir som de er.</translation>
    </message>
    <message>
        <location filename="../views/vswitch/VmPanel.cpp" line="152"/>
        <source>Reset</source>
        <translation>Tilbakestill</translation>
    </message>
    <message>
        <location filename="../views/vswitch/VmPanel.cpp" line="154"/>
        <source>Drops the what-if state and starts again from the document&apos;s fabric and tables.</source>
        <translation>Forkaster hva-om-tilstanden og starter på nytt fra dokumentets fabric og tabeller.</translation>
    </message>
    <message>
        <location filename="../views/vswitch/VmPanel.cpp" line="174"/>
        <source>LID scheme:</source>
        <translation>LID-skjema:</translation>
    </message>
    <message>
        <location filename="../views/vswitch/VmPanel.cpp" line="183"/>
        <source>Migrate to:</source>
        <translation>Migrer til:</translation>
    </message>
    <message>
        <location filename="../views/vswitch/VmPanel.cpp" line="281"/>
        <source>No fabric.</source>
        <translation>Ingen fabric.</translation>
    </message>
    <message>
        <location filename="../views/vswitch/VmPanel.cpp" line="283"/>
        <source>This fabric has no hypervisors (vSwitches with VFs behind them).</source>
        <translation>Denne fabricen har ingen hypervisorer (vSwitcher med VF-er bak seg).</translation>
    </message>
    <message numerus="yes">
        <location filename="../views/vswitch/VmPanel.cpp" line="285"/>
        <source>%n hypervisor(s), %1 VMs running. Open the current tables (File ▸ Open LFT Dump) to plan migrations, boots and shutdowns.</source>
        <translation>
            <numerusform>%n hypervisor, %1 VM-er kjører. Åpne de gjeldende tabellene (Fil ▸ Åpne LFT-dump) for å planlegge migreringer, oppstarter og avslutninger.</numerusform>
            <numerusform>%n hypervisorer, %1 VM-er kjører. Åpne de gjeldende tabellene (Fil ▸ Åpne LFT-dump) for å planlegge migreringer, oppstarter og avslutninger.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../views/vswitch/VmPanel.cpp" line="290"/>
        <source>%n hypervisor(s), %1 VMs running%2.</source>
        <translation>
            <numerusform>%n hypervisor, %1 VM-er kjører%2.</numerusform>
            <numerusform>%n hypervisorer, %1 VM-er kjører%2.</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../views/vswitch/VmPanel.cpp" line="292"/>
        <source> (what-if: migrations, boots or shutdowns applied here only)</source>
        <translation> (hva om: migreringer, oppstarter eller avslutninger brukt bare her)</translation>
    </message>
    <message>
        <location filename="../views/vswitch/VmPanel.cpp" line="304"/>
        <source>%1 of %2 VFs in use</source>
        <translation>%1 av %2 VF-er i bruk</translation>
    </message>
    <message>
        <location filename="../views/vswitch/VmPanel.cpp" line="305"/>
        <source>vSwitch weight, shared equally by its running VMs</source>
        <translation>vSwitch-vekt, delt likt mellom VM-ene som kjører på den</translation>
    </message>
    <message>
        <location filename="../views/vswitch/VmPanel.cpp" line="308"/>
        <source>PF LID (vSwitch LID %1)</source>
        <translation>PF-LID (vSwitch-LID %1)</translation>
    </message>
    <message>
        <location filename="../views/vswitch/VmPanel.cpp" line="313"/>
        <location filename="../views/vswitch/VmPanel.cpp" line="478"/>
        <source>none</source>
        <translation>ingen</translation>
    </message>
    <message>
        <location filename="../views/vswitch/VmPanel.cpp" line="313"/>
        <source>running</source>
        <translation>kjører</translation>
    </message>
    <message>
        <location filename="../views/vswitch/VmPanel.cpp" line="313"/>
        <source>free</source>
        <translation>ledig</translation>
    </message>
    <message>
        <location filename="../views/vswitch/VmPanel.cpp" line="345"/>
        <source>Scheme of the fabric</source>
        <translation>Fabricens skjema</translation>
    </message>
    <message>
        <location filename="../views/vswitch/VmPanel.cpp" line="346"/>
        <source>Physical switches / hypervisors / VFs each</source>
        <translation>Fysiske svitsjer / hypervisorer / VF-er hver</translation>
    </message>
    <message>
        <location filename="../views/vswitch/VmPanel.cpp" line="347"/>
        <source>VMs running</source>
        <translation>VM-er som kjører</translation>
    </message>
    <message>
        <location filename="../views/vswitch/VmPanel.cpp" line="348"/>
        <source>Highest LID (blocks per switch)</source>
        <translation>Høyeste LID (blokker per svitsj)</translation>
    </message>
    <message>
        <location filename="../views/vswitch/VmPanel.cpp" line="349"/>
        <source>B = floor(maxLID / 64) + 1: the LFT blocks a full push sends to every switch.</source>
        <translation>B = floor(maxLID / 64) + 1: LFT-blokkene en full utsending sender til hver svitsj.</translation>
    </message>
    <message>
        <location filename="../views/vswitch/VmPanel.cpp" line="350"/>
        <source>LIDs needed, prepopulated</source>
        <translation>LID-er som trengs, forhåndsutfylt</translation>
    </message>
    <message>
        <location filename="../views/vswitch/VmPanel.cpp" line="350"/>
        <source>S + H(2 + V): every VF has a LID, running or not.</source>
        <translation>S + H(2 + V): hver VF har en LID, enten den kjører eller ikke.</translation>
    </message>
    <message>
        <location filename="../views/vswitch/VmPanel.cpp" line="351"/>
        <source>LIDs needed, dynamic</source>
        <translation>LID-er som trengs, dynamisk</translation>
    </message>
    <message>
        <location filename="../views/vswitch/VmPanel.cpp" line="351"/>
        <source>S + 2H + running VMs: only running VMs have LIDs.</source>
        <translation>S + 2H + VM-er som kjører: bare VM-er som kjører, har LID-er.</translation>
    </message>
    <message>
        <location filename="../views/vswitch/VmPanel.cpp" line="352"/>
        <source>Headroom (%1)</source>
        <translation>Margin (%1)</translation>
    </message>
    <message>
        <location filename="../views/vswitch/VmPanel.cpp" line="353"/>
        <source>Unicast LIDs (49,151) left under the chosen scheme.</source>
        <translation>Unicast-LID-er (49 151) som er igjen med det valgte skjemaet.</translation>
    </message>
    <message>
        <location filename="../views/vswitch/VmPanel.cpp" line="355"/>
        <source>Most hypervisors at %1 VFs</source>
        <translation>Flest hypervisorer med %1 VF-er</translation>
    </message>
    <message>
        <location filename="../views/vswitch/VmPanel.cpp" line="356"/>
        <source>Most VFs per hypervisor</source>
        <translation>Flest VF-er per hypervisor</translation>
    </message>
    <message>
        <location filename="../views/vswitch/VmPanel.cpp" line="358"/>
        <source>Most VMs running at once</source>
        <translation>Flest VM-er som kjører samtidig</translation>
    </message>
    <message>
        <location filename="../views/vswitch/VmPanel.cpp" line="369"/>
        <source>%1 (%2 free VFs)</source>
        <translation>%1 (%2 ledige VF-er)</translation>
    </message>
    <message>
        <location filename="../views/vswitch/VmPanel.cpp" line="411"/>
        <source>Open the current tables to plan a migration.</source>
        <translation>Åpne de gjeldende tabellene for å planlegge en migrering.</translation>
    </message>
    <message>
        <location filename="../views/vswitch/VmPanel.cpp" line="450"/>
        <source>cannot plan</source>
        <translation>kan ikke planlegge</translation>
    </message>
    <message>
        <location filename="../views/vswitch/VmPanel.cpp" line="455"/>
        <source>%1 from %2 to %3</source>
        <translation>%1 fra %2 til %3</translation>
    </message>
    <message>
        <location filename="../views/vswitch/VmPanel.cpp" line="461"/>
        <source>%1 ms</source>
        <translation>%1 ms</translation>
    </message>
    <message>
        <location filename="../views/vswitch/VmPanel.cpp" line="466"/>
        <source>%1%2: x %3 → %4</source>
        <translation>%1%2: x %3 → %4</translation>
    </message>
    <message>
        <location filename="../views/vswitch/VmPanel.cpp" line="466"/>
        <source> [vSwitch]</source>
        <translation> [vSwitch]</translation>
    </message>
    <message>
        <location filename="../views/vswitch/VmPanel.cpp" line="472"/>
        <source>%1 of %2 entries on %3 switches differ from a fresh vswitch-ftree routing</source>
        <translation>%1 av %2 oppføringer på %3 svitsjer avviker fra en fersk vswitch-ftree-ruting</translation>
    </message>
    <message>
        <location filename="../views/vswitch/VmPanel.cpp" line="484"/>
        <source>Planned: %1.</source>
        <translation>Planlagt: %1.</translation>
    </message>
    <message>
        <location filename="../views/vswitch/VmPanel.cpp" line="498"/>
        <source>Applied %1: %2 moved to %3.</source>
        <translation>Brukte %1: %2 flyttet til %3.</translation>
    </message>
    <message>
        <location filename="../views/vswitch/VmPanel.cpp" line="528"/>
        <location filename="../views/vswitch/VmPanel.cpp" line="535"/>
        <source>no vSwitch fabric</source>
        <translation>ingen vSwitch-fabric</translation>
    </message>
    <message>
        <location filename="../views/vswitch/VmPanel.cpp" line="551"/>
        <source>Booted with LID %1 (block %2): %3 switches touched, %4 SMPs, %5 vSwitch SMPs.</source>
        <translation>Startet med LID %1 (blokk %2): %3 svitsjer berørt, %4 SMP-er, %5 vSwitch-SMP-er.</translation>
    </message>
    <message>
        <location filename="../views/vswitch/VmPanel.cpp" line="552"/>
        <source>Shut down, LID %1 (block %2) released: %3 switches touched, %4 SMPs, %5 vSwitch SMPs.</source>
        <translation>Slått av, LID %1 (blokk %2) frigitt: %3 svitsjer berørt, %4 SMP-er, %5 vSwitch-SMP-er.</translation>
    </message>
    <message>
        <location filename="../views/vswitch/VmPanel.cpp" line="559"/>
        <source>The LID is above some switch&apos;s LinearFDBTop: one more SMP there.</source>
        <translation>LID-en ligger over LinearFDBTop for en svitsj: én SMP til der.</translation>
    </message>
</context>
<context>
    <name>weft::WeightTable</name>
    <message>
        <location filename="../views/tenancy/WeightTable.cpp" line="65"/>
        <source>Filter by host or GUID</source>
        <translation>Filtrer på vert eller GUID</translation>
    </message>
    <message>
        <location filename="../views/tenancy/WeightTable.cpp" line="69"/>
        <source>Import…</source>
        <translation>Importer …</translation>
    </message>
    <message>
        <location filename="../views/tenancy/WeightTable.cpp" line="71"/>
        <source>Read weights from a file of &quot;GUID-or-description weight&quot; lines</source>
        <translation>Les vekter fra en fil med linjer på formen «GUID-eller-beskrivelse vekt»</translation>
    </message>
    <message>
        <location filename="../views/tenancy/WeightTable.cpp" line="119"/>
        <source>Import Node Weights</source>
        <translation>Importer nodevekter</translation>
    </message>
    <message>
        <location filename="../views/tenancy/WeightTable.cpp" line="120"/>
        <source>Weight files (*.txt *.weights);;All files (*)</source>
        <translation>Vektfiler (*.txt *.weights);;Alle filer (*)</translation>
    </message>
</context>
<context>
    <name>weft::WeightTableModel</name>
    <message>
        <location filename="../views/tenancy/WeightTableModel.cpp" line="106"/>
        <source>Port GUID</source>
        <translation>Port-GUID</translation>
    </message>
    <message>
        <location filename="../views/tenancy/WeightTableModel.cpp" line="107"/>
        <source>Host</source>
        <translation>Vert</translation>
    </message>
    <message>
        <location filename="../views/tenancy/WeightTableModel.cpp" line="108"/>
        <source>Weight</source>
        <translation>Vekt</translation>
    </message>
</context>
<context>
    <name>weft::remote::ConnectServiceDialog</name>
    <message>
        <location filename="../app/remote/ConnectServiceDialog.cpp" line="29"/>
        <source>Connect to Fabric Service</source>
        <translation>Koble til fabric-tjeneste</translation>
    </message>
    <message>
        <location filename="../app/remote/ConnectServiceDialog.cpp" line="34"/>
        <source>sm1.example.org:8443</source>
        <translation>sm1.example.org:8443</translation>
    </message>
    <message>
        <location filename="../app/remote/ConnectServiceDialog.cpp" line="35"/>
        <source>&amp;Address:</source>
        <translation>&amp;Adresse:</translation>
    </message>
    <message>
        <location filename="../app/remote/ConnectServiceDialog.cpp" line="39"/>
        <source>weft_… (from weft serve token add)</source>
        <translation>weft_… (fra weft serve token add)</translation>
    </message>
    <message>
        <location filename="../app/remote/ConnectServiceDialog.cpp" line="40"/>
        <source>&amp;Token:</source>
        <translation>&amp;Token:</translation>
    </message>
    <message>
        <location filename="../app/remote/ConnectServiceDialog.cpp" line="44"/>
        <source>Browse…</source>
        <translation>Bla gjennom …</translation>
    </message>
    <message>
        <location filename="../app/remote/ConnectServiceDialog.cpp" line="46"/>
        <source>Choose a PEM File</source>
        <translation>Velg en PEM-fil</translation>
    </message>
    <message>
        <location filename="../app/remote/ConnectServiceDialog.cpp" line="46"/>
        <source>PEM files (*.pem *.crt *.key);;All files (*)</source>
        <translation>PEM-filer (*.pem *.crt *.key);;Alle filer (*)</translation>
    </message>
    <message>
        <location filename="../app/remote/ConnectServiceDialog.cpp" line="58"/>
        <source>or client &amp;certificate:</source>
        <translation>eller klient&amp;sertifikat:</translation>
    </message>
    <message>
        <location filename="../app/remote/ConnectServiceDialog.cpp" line="59"/>
        <source>its &amp;key:</source>
        <translation>dets &amp;nøkkel:</translation>
    </message>
    <message>
        <location filename="../app/remote/ConnectServiceDialog.cpp" line="60"/>
        <source>The service&apos;s own certificate is shown the first time you connect, to be trusted as ssh trusts a host key; later connections accept that certificate and no other.</source>
        <translation>Tjenestens eget sertifikat vises første gang du kobler til, for å bli stolt på slik ssh stoler på en vertsnøkkel; senere tilkoblinger godtar det sertifikatet og ikke noe annet.</translation>
    </message>
    <message>
        <location filename="../app/remote/ConnectServiceDialog.cpp" line="65"/>
        <source>Connect</source>
        <translation>Koble til</translation>
    </message>
    <message>
        <location filename="../app/remote/ConnectServiceDialog.cpp" line="68"/>
        <source>Give the service&apos;s address and a token or a client certificate.</source>
        <translation>Oppgi tjenestens adresse og et token eller et klientsertifikat.</translation>
    </message>
</context>
<context>
    <name>weft::remote::ServiceConnections</name>
    <message>
        <location filename="../app/remote/ConnectServiceDialog.cpp" line="100"/>
        <source>Connect to Fabric &amp;Service…</source>
        <translation>Koble til fabric-&amp;tjeneste …</translation>
    </message>
    <message>
        <location filename="../app/remote/ConnectServiceDialog.cpp" line="102"/>
        <source>Work on a fabric served by weft serve on its SM host: no local adapter needed</source>
        <translation>Arbeid på en fabric som weft serve betjener på SM-verten: ingen lokal adapter trengs</translation>
    </message>
    <message>
        <location filename="../app/remote/ConnectServiceDialog.cpp" line="104"/>
        <source>&amp;Disconnect from Fabric Service</source>
        <translation>&amp;Koble fra fabric-tjeneste</translation>
    </message>
    <message>
        <location filename="../app/remote/ConnectServiceDialog.cpp" line="117"/>
        <source>The fabric this desk works on: the local one, or a connected fabric service&apos;s subnet</source>
        <translation>Fabricen dette skrivebordet arbeider på: den lokale, eller subnettet til en tilkoblet fabric-tjeneste</translation>
    </message>
    <message>
        <location filename="../app/remote/ConnectServiceDialog.cpp" line="134"/>
        <source>a connection is being made</source>
        <translation>en tilkobling opprettes</translation>
    </message>
    <message>
        <location filename="../app/remote/ConnectServiceDialog.cpp" line="139"/>
        <source>Connecting to %1…</source>
        <translation>Kobler til %1 …</translation>
    </message>
    <message>
        <location filename="../app/remote/ConnectServiceDialog.cpp" line="156"/>
        <source>The Service&apos;s Certificate Has Changed</source>
        <translation>Tjenestens sertifikat er endret</translation>
    </message>
    <message>
        <location filename="../app/remote/ConnectServiceDialog.cpp" line="157"/>
        <source>The fabric service at %1 shows another certificate than the one trusted before.

Trusted: %2
Shown:   %3

Someone may be in between. Nothing was sent to it. If its certificate was replaced on purpose, remove its line from %4 and connect again.</source>
        <translation>Fabric-tjenesten på %1 viser et annet sertifikat enn det som ble godtatt før.

Godtatt: %2
Vist:    %3

Noen kan stå imellom. Ingenting ble sendt til den. Hvis sertifikatet ble byttet med vilje, fjern linjen dens fra %4 og koble til på nytt.</translation>
    </message>
    <message>
        <location filename="../app/remote/ConnectServiceDialog.cpp" line="161"/>
        <source>%1: the service&apos;s certificate changed; not connected</source>
        <translation>%1: tjenestens sertifikat er endret; ikke tilkoblet</translation>
    </message>
    <message>
        <location filename="../app/remote/ConnectServiceDialog.cpp" line="165"/>
        <source>Trust This Fabric Service?</source>
        <translation>Stole på denne fabric-tjenesten?</translation>
    </message>
    <message>
        <location filename="../app/remote/ConnectServiceDialog.cpp" line="166"/>
        <source>The authenticity of the fabric service at %1 cannot be established.

Its certificate: %2
SHA-256 fingerprint:
%3

Compare the fingerprint with the one on the SM host (openssl x509 -noout -fingerprint -sha256 -in CERT). Trust it from now on?</source>
        <translation>Ektheten til fabric-tjenesten på %1 kan ikke fastslås.

Sertifikatet: %2
SHA-256-fingeravtrykk:
%3

Sammenlign fingeravtrykket med det på SM-verten (openssl x509 -noout -fingerprint -sha256 -in CERT). Stole på det fra nå av?</translation>
    </message>
    <message>
        <location filename="../app/remote/ConnectServiceDialog.cpp" line="173"/>
        <source>%1: its certificate was not trusted; not connected</source>
        <translation>%1: sertifikatet ble ikke godtatt; ikke tilkoblet</translation>
    </message>
    <message>
        <location filename="../app/remote/ConnectServiceDialog.cpp" line="197"/>
        <source>Connected to %1 as %2</source>
        <translation>Koblet til %1 som %2</translation>
    </message>
    <message>
        <location filename="../app/remote/ConnectServiceDialog.cpp" line="215"/>
        <source>Working on the local fabric</source>
        <translation>Arbeider på den lokale fabricen</translation>
    </message>
    <message>
        <location filename="../app/remote/ConnectServiceDialog.cpp" line="216"/>
        <source>Working on the local fabric: the fabric shown is as %1 last served it; Fabric ▸ Discover reads the local one</source>
        <translation>Arbeider på den lokale fabricen: fabricen som vises, er slik %1 sist leverte den; Fabric ▸ Oppdag leser den lokale</translation>
    </message>
    <message>
        <location filename="../app/remote/ConnectServiceDialog.cpp" line="228"/>
        <source>Working on subnet %1 through the fabric service at %2</source>
        <translation>Arbeider på subnett %1 gjennom fabric-tjenesten på %2</translation>
    </message>
    <message>
        <location filename="../app/remote/ConnectServiceDialog.cpp" line="238"/>
        <source>Local fabric</source>
        <translation>Lokal fabric</translation>
    </message>
    <message>
        <location filename="../app/remote/ConnectServiceDialog.cpp" line="240"/>
        <source>%1 (%2)</source>
        <translation>%1 (%2)</translation>
    </message>
    <message>
        <location filename="../app/remote/ConnectServiceDialog.cpp" line="240"/>
        <source>subnet</source>
        <translation>subnett</translation>
    </message>
</context>
</TS>
